import { can, colleague, secured } from '../kernel/operations.js';
import {
  answerSurvey,
  assignedSurveys,
  closeSurvey,
  createSurvey,
  getSurvey,
  listGroups,
  listSurveys,
  openSurvey,
  questionnaire,
  remindSurvey,
  surveyResults,
  updateSurvey,
} from './service.js';

const view = can('dataLab', 'view');
const edit = can('dataLab', 'edit');

export const pulseSurveyOperations = [
  secured({ operationId: 'listPulseSurveys', access: view, handler: async (_input, { deps, caller }) => ({ data: await listSurveys(deps.db, caller) }) }),
  secured({ operationId: 'createPulseSurvey', access: edit, status: 201, handler: async ({ body }, { deps, caller }) => ({ data: await createSurvey(deps.db, caller, body) }) }),
  secured({ operationId: 'listPulseSurveyGroups', access: edit, handler: async (_input, { deps, caller }) => ({ data: await listGroups(deps.db, caller) }) }),
  secured({ operationId: 'getPulseSurvey', access: view, handler: async ({ path }, { deps, caller }) => ({ data: await getSurvey(deps.db, caller, path.pulseSurveyId) }) }),
  secured({
    operationId: 'updatePulseSurvey',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller }) => ({ data: await updateSurvey(deps.db, caller, path.pulseSurveyId, headers['If-Match'], body) }),
  }),
  secured({ operationId: 'openPulseSurvey', access: edit, handler: async ({ path, headers }, { deps, caller }) => ({ data: await openSurvey(deps.db, caller, path.pulseSurveyId, headers['If-Match']) }) }),
  secured({ operationId: 'closePulseSurvey', access: edit, handler: async ({ path, headers }, { deps, caller }) => ({ data: await closeSurvey(deps.db, caller, path.pulseSurveyId, headers['If-Match']) }) }),
  secured({ operationId: 'remindPulseSurvey', access: edit, handler: async ({ path }, { deps, caller }) => ({ data: await remindSurvey(deps.db, caller, path.pulseSurveyId) }) }),
  secured({ operationId: 'getPulseSurveyResults', access: view, handler: async ({ path }, { deps, caller }) => ({ data: await surveyResults(deps.db, caller, path.pulseSurveyId) }) }),
  // Answering needs no permission: anyone of the company but a candidate, for a survey sent to them (else 404).
  secured({ operationId: 'listAssignedPulseSurveys', access: colleague, handler: async (_input, { deps, caller }) => ({ data: await assignedSurveys(deps.db, caller) }) }),
  secured({ operationId: 'getPulseQuestionnaire', access: colleague, handler: async ({ path }, { deps, caller }) => ({ data: await questionnaire(deps.db, caller, path.pulseSurveyId) }) }),
  secured({
    operationId: 'answerPulseSurvey',
    access: colleague,
    status: 201,
    handler: async ({ path, body }, { deps, caller }) => ({ data: await answerSurvey(deps.db, caller, path.pulseSurveyId, body) }),
  }),
];
