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
  secured({ operationId: 'listPulseSurveys', access: view, handler: async (_input, ctx) => ({ data: await listSurveys(ctx) }) }),
  secured({ operationId: 'createPulseSurvey', access: edit, status: 201, handler: async ({ body }, ctx) => ({ data: await createSurvey(ctx, body) }) }),
  secured({ operationId: 'listPulseSurveyGroups', access: edit, handler: async (_input, ctx) => ({ data: await listGroups(ctx) }) }),
  secured({ operationId: 'getPulseSurvey', access: view, handler: async ({ path }, ctx) => ({ data: await getSurvey(ctx, path.pulseSurveyId) }) }),
  secured({
    operationId: 'updatePulseSurvey',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => ({ data: await updateSurvey(ctx, path.pulseSurveyId, headers['If-Match'], body) }),
  }),
  secured({ operationId: 'openPulseSurvey', access: edit, handler: async ({ path, headers }, ctx) => ({ data: await openSurvey(ctx, path.pulseSurveyId, headers['If-Match']) }) }),
  secured({ operationId: 'closePulseSurvey', access: edit, handler: async ({ path, headers }, ctx) => ({ data: await closeSurvey(ctx, path.pulseSurveyId, headers['If-Match']) }) }),
  secured({ operationId: 'remindPulseSurvey', access: edit, handler: async ({ path }, ctx) => ({ data: await remindSurvey(ctx, path.pulseSurveyId) }) }),
  secured({ operationId: 'getPulseSurveyResults', access: view, handler: async ({ path }, ctx) => ({ data: await surveyResults(ctx, path.pulseSurveyId) }) }),
  // Answering needs no permission: anyone of the company but a candidate, for a survey sent to them (else 404).
  secured({ operationId: 'listAssignedPulseSurveys', access: colleague, handler: async (_input, ctx) => ({ data: await assignedSurveys(ctx) }) }),
  secured({ operationId: 'getPulseQuestionnaire', access: colleague, handler: async ({ path }, ctx) => ({ data: await questionnaire(ctx, path.pulseSurveyId) }) }),
  secured({
    operationId: 'answerPulseSurvey',
    access: colleague,
    status: 201,
    handler: async ({ path, body }, ctx) => ({ data: await answerSurvey(ctx, path.pulseSurveyId, body) }),
  }),
];
