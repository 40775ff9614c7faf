import { lazy } from 'react';
import { retryImport } from '../../app/retryImport';
import { defineModule, lazyScreen } from '../../app/webModule';

const admin = () => import('./Admin');
const newSurvey = () => import('./NewSurvey');
const answer = () => import('./Answer');

/**
 * Pulse surveys (the data lab's `pulseSurveys` feature): the admin's list, new survey and results
 * under the data lab, the employee's answer screen at `/pulse/:surveyId` (made for a phone), and a
 * home card listing the surveys waiting for the person's answer.
 */
export default defineModule({
  routes: [
    { path: '/paybench-data-lab/pulse-surveys', screen: lazyScreen(admin, (m) => m.PulseSurveysScreen) },
    { path: '/paybench-data-lab/pulse-surveys/new', screen: lazyScreen(newSurvey, (m) => m.NewPulseSurveyScreen) },
    { path: '/paybench-data-lab/pulse-surveys/:surveyId/edit', screen: lazyScreen(newSurvey, (m) => m.EditPulseSurveyScreen) },
    { path: '/paybench-data-lab/pulse-surveys/:surveyId', screen: lazyScreen(admin, (m) => m.PulseSurveyScreen) },
    { path: '/pulse/:surveyId', screen: lazyScreen(answer, (m) => m.PulseAnswerScreen) },
  ],
  cards: [{ key: 'pulseSurveys', order: 10, card: lazy(() => retryImport(() => import('./HomeCard')).then((m) => ({ default: m.PulseSurveysCard }))) }],
});
