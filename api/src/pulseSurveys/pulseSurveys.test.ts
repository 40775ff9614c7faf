import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../contract-types.js';
import { saveDataLabFeatures } from '../dataLab/subscription.js';
import { insertEmployee } from '../team/test/fixtures.js';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser } from '../../test/factories.js';
import { type ErrorBody, request } from '../../test/http.js';
import { ownServer } from '../../test/ownServer.js';

type Survey = components['schemas']['PulseSurvey'];
type Results = components['schemas']['PulseSurveyResults'];
type Questionnaire = components['schemas']['PulseQuestionnaire'];
type Groups = components['schemas']['PulseSurveyGroups'];

// Its own server with a real SMTP server: invitations and reminders travel over SMTP.
const server = ownServer('Pulse Co');
let other: TestCompany;

interface Person {
  user: TestUser;
  employeeId: string;
}
const engineers: Person[] = [];
const sales: Person[] = [];
let manager: Person;
let departed: Person;

const PAY_QUESTION = 'I understand how my pay is set';
const FAIR_QUESTION = 'My pay is fair for the work I do';
const day = (offset: number): string => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

const api = <T>(path: string, init: Parameters<typeof request>[1] = {}) => request<T>(path, { ...init, base: server.url });

async function person(department: string, locationId: string, levelId: string, managerId: string | null, status: 'active' | 'terminated' = 'active'): Promise<Person> {
  const user = await createTestUser(server.db, { companyId: server.company.id, roleIds: [server.company.roleIds.get('employee') ?? ''] });
  const employeeId = await insertEmployee(server.db, server.company.id, { firstName: 'Pulse', lastName: user.email.split('@')[0] ?? 'Person', userId: user.id, email: user.email, department, locationId, levelId, managerId, status });
  return { user, employeeId };
}

beforeAll(async () => {
  const { db, company, admin } = server;
  other = await createTestCompany(db, 'Elsewhere Co');
  await saveDataLabFeatures(db, company.id, { insights: false, agent: false, pulseSurveys: true }, admin.id);
  await saveDataLabFeatures(db, other.id, { insights: false, agent: false, pulseSurveys: true }, admin.id);
  manager = await person('Leadership', 'us_new_york', 'm4', null);
  for (let i = 0; i < 6; i += 1) engineers.push(await person('Engineering', 'us_sf_bay_area', 'p3', manager.employeeId));
  for (let i = 0; i < 3; i += 1) sales.push(await person('Sales', 'us_new_york', 'p2', null));
  departed = await person('Engineering', 'us_sf_bay_area', 'p3', manager.employeeId, 'terminated');
  // An engineer without a sign-in cannot answer, so is never in an audience.
  await insertEmployee(db, company.id, { firstName: 'No', lastName: 'Login', department: 'Engineering', managerId: manager.employeeId });
}, 120_000);

async function createSurvey(title: string, target: components['schemas']['PulseSurveyTarget'], questions = [PAY_QUESTION, FAIR_QUESTION], caller = server.admin) {
  return api<{ data: Survey }>('/api/data-lab/pulse-surveys', { method: 'POST', headers: bearer(caller), json: { title, questions, target, opensOn: day(0), closesOn: day(14) } });
}

async function openedSurvey(title: string, target: components['schemas']['PulseSurveyTarget'], questions?: string[]): Promise<Survey> {
  const created = await createSurvey(title, target, questions);
  expect(created.status).toBe(201);
  const opened = await api<{ data: Survey }>(`/api/data-lab/pulse-surveys/${created.body.data.id}/open`, { method: 'POST', headers: { ...bearer(server.admin), 'If-Match': `"${created.body.data.version}"` } });
  expect(opened.status).toBe(200);
  return opened.body.data;
}

function answer(survey: Survey, who: Person, scores: number[], comment?: string) {
  return api<{ data: Questionnaire } | ErrorBody>(`/api/data-lab/pulse-surveys/${survey.id}/answers`, {
    method: 'POST',
    headers: bearer(who.user),
    json: { scores: survey.questions.map((question, index) => ({ questionId: question.id, score: scores[index] ?? 3 })), ...(comment ? { comment } : {}) },
  });
}

const results = async (survey: Survey): Promise<Results> => {
  const reply = await api<{ data: Results }>(`/api/data-lab/pulse-surveys/${survey.id}/results`, { headers: bearer(server.admin) });
  expect(reply.status).toBe(200);
  return reply.body.data;
};

describe('creating and targeting pulse surveys', () => {
  it('creates a draft that nobody can answer yet, and lists the groups with who could answer', async () => {
    const created = await createSurvey('Draft pulse', { kind: 'department', values: ['Engineering'] });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ state: 'draft', audienceSize: null, respondents: 0, actions: ['open'], target: { kind: 'department', values: ['Engineering'], labels: ['Engineering'] } });
    expect(created.body.data.questions.map((question) => question.text)).toEqual([PAY_QUESTION, FAIR_QUESTION]);
    const mine = await api<{ data: Questionnaire[] }>('/api/data-lab/pulse-surveys/assigned', { headers: bearer(engineers[0]?.user as TestUser) });
    expect(mine.body.data.map((survey) => survey.id)).not.toContain(created.body.data.id);

    const groups = await api<{ data: Groups }>('/api/data-lab/pulse-surveys/groups', { headers: bearer(server.admin) });
    expect(groups.status).toBe(200);
    // Ten active people with a sign-in: the manager, six engineers, three in sales (not the departed, not the one without a sign-in).
    expect(groups.body.data.everyone).toBe(10);
    expect(groups.body.data.department).toEqual([
      { value: 'Engineering', label: 'Engineering', people: 6 },
      { value: 'Leadership', label: 'Leadership', people: 1 },
      { value: 'Sales', label: 'Sales', people: 3 },
    ]);
    expect(groups.body.data.location).toContainEqual({ value: 'us_new_york', label: 'New York City', people: 4 });
    expect(groups.body.data.level).toContainEqual({ value: 'p3', label: 'P3 (Career)', people: 6 });
    expect(groups.body.data.managerSubtree).toContainEqual({ value: manager.employeeId, label: `Pulse ${manager.user.email.split('@')[0]}`, people: 7 });
  });

  it('refuses closing before opening and a repeated question, with the field named', async () => {
    const early = await api<ErrorBody>('/api/data-lab/pulse-surveys', { method: 'POST', headers: bearer(server.admin), json: { title: 'Backwards', questions: [PAY_QUESTION], target: { kind: 'everyone', values: [] }, opensOn: day(3), closesOn: day(1) } });
    expect(early.status).toBe(400);
    expect(early.body).toMatchObject({ message: 'The closing date must be on or after the opening date.', errors: [{ field: 'body.closesOn' }] });
    const twice = await createSurvey('Twice', { kind: 'everyone', values: [] }, [PAY_QUESTION, ' i understand  how my pay is set ']);
    expect(twice.status).toBe(400);
    expect((twice.body as unknown as ErrorBody).message).toBe('A survey asks each question once.');
  });

  it('sends a department survey only to that department: others neither see it nor open it', async () => {
    const survey = await openedSurvey('Engineering pulse', { kind: 'department', values: ['Engineering'] });
    expect(survey).toMatchObject({ state: 'open', audienceSize: 6, actions: ['close'] });
    const engineer = await api<{ data: Questionnaire[] }>('/api/data-lab/pulse-surveys/assigned', { headers: bearer(engineers[0]?.user as TestUser) });
    expect(engineer.body.data.find((item) => item.id === survey.id)).toMatchObject({ title: 'Engineering pulse', answered: false, open: true });
    const seller = await api<{ data: Questionnaire[] }>('/api/data-lab/pulse-surveys/assigned', { headers: bearer(sales[0]?.user as TestUser) });
    expect(seller.body.data.map((item) => item.id)).not.toContain(survey.id);
    expect((await api(`/api/data-lab/pulse-surveys/${survey.id}/questionnaire`, { headers: bearer(sales[0]?.user as TestUser) })).status).toBe(404);
    expect((await answer(survey, sales[0] as Person, [5, 5])).status).toBe(404);
    expect((await api(`/api/data-lab/pulse-surveys/${survey.id}/questionnaire`, { headers: bearer(departed.user) })).status).toBe(404);
  });

  it('targets a manager with everyone below them, and a level', async () => {
    const subtree = await openedSurvey('Team pulse', { kind: 'managerSubtree', values: [manager.employeeId] });
    expect(subtree.audienceSize).toBe(7);
    expect(subtree.target.labels).toEqual([`Pulse ${manager.user.email.split('@')[0]} and everyone below them`]);
    const level = await openedSurvey('P2 pulse', { kind: 'level', values: ['p2'] });
    expect(level.audienceSize).toBe(3);
    const seller = await api<{ data: Questionnaire[] }>('/api/data-lab/pulse-surveys/assigned', { headers: bearer(sales[1]?.user as TestUser) });
    expect(seller.body.data.map((item) => item.id)).toContain(level.id);
    expect(seller.body.data.map((item) => item.id)).not.toContain(subtree.id);
  });
});

describe('answering', () => {
  it('takes one answer per person', async () => {
    const survey = await openedSurvey('Once only', { kind: 'department', values: ['Sales'] });
    const first = await answer(survey, sales[0] as Person, [4, 2]);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ data: { answered: true } });
    const second = await answer(survey, sales[0] as Person, [1, 1]);
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ code: 'already_answered', message: 'You have already answered this survey. Answers are anonymous, so they cannot be changed.' });
    const mine = await api<{ data: Questionnaire }>(`/api/data-lab/pulse-surveys/${survey.id}/questionnaire`, { headers: bearer(sales[0]?.user as TestUser) });
    expect(mine.body.data.answered).toBe(true);
  });

  it('needs a score for every question', async () => {
    const survey = await openedSurvey('Every question', { kind: 'department', values: ['Sales'] });
    const partial = await api<ErrorBody>(`/api/data-lab/pulse-surveys/${survey.id}/answers`, { method: 'POST', headers: bearer(sales[1]?.user as TestUser), json: { scores: [{ questionId: survey.questions[0]?.id, score: 4 }] } });
    expect(partial.status).toBe(400);
    expect(partial.body.message).toBe('Answer every question with a score from 1 to 5.');
    const outOfScale = await api<ErrorBody>(`/api/data-lab/pulse-surveys/${survey.id}/answers`, { method: 'POST', headers: bearer(sales[1]?.user as TestUser), json: { scores: survey.questions.map((q) => ({ questionId: q.id, score: 6 })) } });
    expect(outOfScale.status).toBe(400);
  });

  it('closes through the workflow: no answers after, and a closed survey cannot be closed again', async () => {
    const survey = await openedSurvey('Closing', { kind: 'department', values: ['Sales'] });
    const closed = await api<{ data: Survey }>(`/api/data-lab/pulse-surveys/${survey.id}/close`, { method: 'POST', headers: { ...bearer(server.admin), 'If-Match': `"${survey.version}"` } });
    expect(closed.status).toBe(200);
    expect(closed.body.data).toMatchObject({ state: 'closed', actions: [] });
    const late = await answer(survey, sales[2] as Person, [3, 3]);
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ code: 'survey_not_open', message: 'This survey is closed: it no longer takes answers.' });
    const again = await api<ErrorBody>(`/api/data-lab/pulse-surveys/${survey.id}/close`, { method: 'POST', headers: { ...bearer(server.admin), 'If-Match': `"${closed.body.data.version}"` } });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'invalid_transition', message: 'A closed survey cannot be closed.' });
    const stale = await api<ErrorBody>(`/api/data-lab/pulse-surveys/${survey.id}`, { method: 'PATCH', headers: { ...bearer(server.admin), 'If-Match': `"${closed.body.data.version}"` }, json: { title: 'Renamed' } });
    expect(stale.status).toBe(409);
  });

  it('closes on its own once its closing date is over', async () => {
    const survey = await openedSurvey('Closes itself', { kind: 'department', values: ['Sales'] });
    // Opening queued the closing for the day after the closing date, at midnight UTC.
    const queued = await server.db('jobs').where({ company_id: server.company.id, type: 'pulseSurveyClosing', status: 'queued' }).whereLike('input', `%${survey.id}%`).first<{ id: string; run_after: string | Date }>();
    expect(new Date(queued?.run_after ?? 0).toISOString()).toBe(`${day(15)}T00:00:00.000Z`);
    // Two weeks pass: the closing date is behind us and the job is due.
    await server.db('pulse_surveys').where({ id: survey.id }).update({ closes_on: day(-1) });
    await server.db('jobs').where({ id: queued?.id }).update({ run_after: new Date(Date.now() - 1000).toISOString() });
    const late = await answer(survey, sales[2] as Person, [3, 3]);
    expect(late.body).toMatchObject({ code: 'survey_not_open', message: `This survey closed on ${day(-1)}.` });
    await expect
      .poll(async () => (await api<{ data: Survey }>(`/api/data-lab/pulse-surveys/${survey.id}`, { headers: bearer(server.admin) })).body.data.state, { timeout: 30_000 })
      .toBe('closed');
    const history = await server.db('workflow_history').where({ subject_id: survey.id }).orderBy('created_at').select('action', 'actor_user_id');
    expect(history.map((entry: { action: string }) => entry.action)).toEqual(['open', 'expire']);
  });
});

describe('results', () => {
  it('hides everything under 5 respondents and shows it at exactly 5, with hand-checked averages', async () => {
    const survey = await openedSurvey('Threshold', { kind: 'department', values: ['Engineering'] });
    const scores = [
      [5, 2],
      [4, 2],
      [4, 3],
      [3, 4],
      [2, 1],
    ];
    for (let i = 0; i < 4; i += 1) expect((await answer(survey, engineers[i] as Person, scores[i] as number[])).status).toBe(201);
    const four = await results(survey);
    expect(four.survey.respondents).toBe(4);
    expect(four.overall).toMatchObject({ shown: false, respondents: null, message: 'Fewer than 5 answers' });
    expect(four.overall.scores.every((score) => score.average === null && score.distribution === null)).toBe(true);
    expect(four.breakdowns.find((b) => b.dimension === 'department')?.groups).toEqual([expect.objectContaining({ label: 'Engineering', audience: 6, respondents: null, shown: false, message: 'Fewer than 5 answers' })]);
    expect(four.comments).toBeNull();
    expect(four.commentsMessage).toBe('Comments show once the survey has 5 answers.');

    expect((await answer(survey, engineers[4] as Person, scores[4] as number[])).status).toBe(201);
    const five = await results(survey);
    expect(five.overall).toMatchObject({ shown: true, respondents: 5, audience: 6, message: null });
    // (5+4+4+3+2)/5 = 3.6 and (2+2+3+4+1)/5 = 2.4
    expect(five.overall.scores).toEqual([
      { questionId: survey.questions[0]?.id, average: 3.6, distribution: [0, 1, 1, 2, 1] },
      { questionId: survey.questions[1]?.id, average: 2.4, distribution: [1, 2, 1, 1, 0] },
    ]);
    const department = five.breakdowns.find((b) => b.dimension === 'department');
    expect(department?.groups[0]).toMatchObject({ label: 'Engineering', respondents: 5, shown: true });
    expect(five.breakdowns.find((b) => b.dimension === 'level')?.groups[0]).toMatchObject({ label: 'P3 (Career)', respondents: 5, shown: true });
  });

  it('hides a shown group with the small ones when the total would give the small ones away', async () => {
    const survey = await openedSurvey('Everyone pulse', { kind: 'everyone', values: [] });
    for (const engineer of engineers.slice(0, 5)) expect((await answer(survey, engineer, [4, 4], 'Clear enough')).status).toBe(201);
    let shown = await results(survey);
    let department = shown.breakdowns.find((b) => b.dimension === 'department')?.groups ?? [];
    expect(department.find((g) => g.label === 'Engineering')).toMatchObject({ shown: true, respondents: 5 });
    // Two from sales answer: Sales is under 5, and Engineering would be the total less Sales, so it hides too.
    expect((await answer(survey, sales[0] as Person, [1, 1], 'Bands are a mystery')).status).toBe(201);
    expect((await answer(survey, sales[1] as Person, [2, 1], 'All good')).status).toBe(201);
    shown = await results(survey);
    expect(shown.overall).toMatchObject({ shown: true, respondents: 7 });
    department = shown.breakdowns.find((b) => b.dimension === 'department')?.groups ?? [];
    expect(department.find((g) => g.label === 'Sales')).toMatchObject({ shown: false, message: 'Fewer than 5 answers', respondents: null });
    expect(department.find((g) => g.label === 'Engineering')).toMatchObject({ shown: false, message: 'Hidden with the groups of fewer than 5 answers, so that theirs cannot be worked out' });
    // Comments come sorted by their text, never in the order they were written.
    expect(shown.comments).toEqual(['All good', 'Bands are a mystery', 'Clear enough', 'Clear enough', 'Clear enough', 'Clear enough', 'Clear enough']);
  });

  it('follows a question across surveys that asked it', async () => {
    const first = await openedSurvey('Spring pulse', { kind: 'department', values: ['Engineering'] }, [PAY_QUESTION]);
    for (const engineer of engineers.slice(0, 5)) expect((await answer(first, engineer, [2])).status).toBe(201);
    await api(`/api/data-lab/pulse-surveys/${first.id}/close`, { method: 'POST', headers: { ...bearer(server.admin), 'If-Match': `"${first.version}"` } });
    const second = await openedSurvey('Autumn pulse', { kind: 'department', values: ['Engineering'] }, ['I understand how my pay is set', 'A brand new question']);
    for (const engineer of engineers.slice(0, 5)) expect((await answer(second, engineer, [4, 3])).status).toBe(201);
    const shown = await results(second);
    const trend = shown.questions.find((q) => q.text === PAY_QUESTION)?.trend ?? [];
    const points = trend.filter((point) => point.surveyId === first.id || point.surveyId === second.id);
    expect(points).toEqual([
      expect.objectContaining({ surveyId: first.id, title: 'Spring pulse', state: 'closed', average: 2, respondents: 5 }),
      expect.objectContaining({ surveyId: second.id, title: 'Autumn pulse', state: 'open', average: 4, respondents: 5 }),
    ]);
    expect(shown.questions.find((q) => q.text === 'A brand new question')?.trend.map((point) => point.surveyId)).toEqual([second.id]);
  });

  it('never says who answered what', async () => {
    const survey = await openedSurvey('Anonymous', { kind: 'department', values: ['Engineering'] });
    for (const [index, engineer] of engineers.slice(0, 5).entries()) expect((await answer(survey, engineer, [index + 1, 5 - index], `note ${index}`)).status).toBe(201);
    const replies = await Promise.all([
      api(`/api/data-lab/pulse-surveys/${survey.id}/results`, { headers: bearer(server.admin) }),
      api(`/api/data-lab/pulse-surveys/${survey.id}`, { headers: bearer(server.admin) }),
      api('/api/data-lab/pulse-surveys', { headers: bearer(server.admin) }),
      api(`/api/data-lab/pulse-surveys/${survey.id}/questionnaire`, { headers: bearer(engineers[0]?.user as TestUser) }),
    ]);
    const text = JSON.stringify(replies.map((reply) => reply.body));
    for (const engineer of engineers) {
      expect(text).not.toContain(engineer.user.id);
      expect(text).not.toContain(engineer.user.email);
      expect(text).not.toContain(engineer.employeeId);
    }
    // What the database holds of the answers: counts and comments, no person and no time.
    const tallyColumns = Object.keys((await server.db('pulse_survey_tallies').where({ survey_id: survey.id }).first()) ?? {});
    expect(tallyColumns.sort()).toEqual(['answers', 'company_id', 'dimension', 'group_key', 'question_id', 'score', 'survey_id']);
    const commentColumns = Object.keys((await server.db('pulse_survey_comments').where({ survey_id: survey.id }).first()) ?? {});
    expect(commentColumns.sort()).toEqual(['company_id', 'id', 'survey_id', 'text']);
    const audienceColumns = Object.keys((await server.db('pulse_survey_audience').where({ survey_id: survey.id }).first()) ?? {});
    expect(audienceColumns).not.toContain('answered_at');
  });
});

describe('reminders', () => {
  it('e-mails the survey on opening, then reminds only those who have not answered', async () => {
    const survey = await openedSurvey('Reminded pulse', { kind: 'department', values: ['Sales'] });
    const invited = (who: Person) => server.smtp.to(who.user.email).filter((mail) => mail.text.includes('Reminded pulse') && mail.text.includes('You are invited'));
    for (const seller of sales) await expect.poll(() => invited(seller).length, { timeout: 20_000 }).toBe(1);
    expect(invited(sales[0] as Person)[0]?.text).toContain(`/pulse/${survey.id}`);
    expect((await answer(survey, sales[0] as Person, [3, 3])).status).toBe(201);

    const reminded = await api<{ data: { reminded: number; survey: Survey } }>(`/api/data-lab/pulse-surveys/${survey.id}/reminders`, { method: 'POST', headers: bearer(server.admin) });
    expect(reminded.status).toBe(200);
    expect(reminded.body.data.reminded).toBe(2);
    expect(reminded.body.data.survey.remindersSent).toBe(2);
    const reminders = (who: Person) => server.smtp.to(who.user.email).filter((mail) => mail.text.includes('A reminder: the pulse survey') && mail.text.includes('Reminded pulse'));
    await expect.poll(() => reminders(sales[1] as Person).length + reminders(sales[2] as Person).length, { timeout: 20_000 }).toBe(2);
    expect(reminders(sales[1] as Person)[0]?.text).toContain(`/pulse/${survey.id}`);
    // The one who answered hears nothing more.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(reminders(sales[0] as Person)).toHaveLength(0);
  });
});

describe('access', () => {
  it('answers another company’s survey id with 404, and a company without the feature with 404', async () => {
    const survey = await openedSurvey('Ours', { kind: 'department', values: ['Sales'] });
    const outsider = other.users.admin as TestUser;
    for (const path of ['', '/results', '/questionnaire']) expect((await api(`/api/data-lab/pulse-surveys/${survey.id}${path}`, { headers: bearer(outsider) })).status).toBe(404);
    expect((await api(`/api/data-lab/pulse-surveys/${survey.id}/close`, { method: 'POST', headers: { ...bearer(outsider), 'If-Match': `"${survey.version}"` } })).status).toBe(404);
    expect((await api(`/api/data-lab/pulse-surveys/${survey.id}/answers`, { method: 'POST', headers: bearer(outsider), json: { scores: survey.questions.map((q) => ({ questionId: q.id, score: 3 })) } })).status).toBe(404);
    expect((await api<{ data: Survey[] }>('/api/data-lab/pulse-surveys', { headers: bearer(outsider) })).body.data.map((s) => s.id)).not.toContain(survey.id);

    const unsubscribed = await createTestCompany(server.db, 'Plain Co');
    const refused = await api<ErrorBody>('/api/data-lab/pulse-surveys', { headers: bearer(unsubscribed.users.admin as TestUser) });
    expect(refused.status).toBe(404);
    expect(refused.body.message).toBe("Pulse surveys are not part of Plain Co's data-lab subscription.");
    // Answering says nothing of the subscription (which needs dataLab view): no survey was sent, and an id is a plain 404.
    const employee = bearer(unsubscribed.users.employee as TestUser);
    const assigned = await api<{ data: Questionnaire[] }>('/api/data-lab/pulse-surveys/assigned', { headers: employee });
    expect(assigned.status).toBe(200);
    expect(assigned.body.data).toEqual([]);
    const unknown = await api<ErrorBody>(`/api/data-lab/pulse-surveys/${survey.id}/questionnaire`, { headers: employee });
    expect(unknown.status).toBe(404);
    expect(JSON.stringify(unknown.body)).not.toContain('subscription');
  });

  it('lets analysts read results but not run surveys, and employees only answer', async () => {
    const survey = await openedSurvey('Roles', { kind: 'department', values: ['Sales'] });
    const analyst = server.company.users.analyst as TestUser;
    expect((await api(`/api/data-lab/pulse-surveys/${survey.id}/results`, { headers: bearer(analyst) })).status).toBe(200);
    expect((await createSurvey('By an analyst', { kind: 'everyone', values: [] }, [PAY_QUESTION], analyst)).status).toBe(403);
    const reading = await api<{ data: Survey }>(`/api/data-lab/pulse-surveys/${survey.id}`, { headers: bearer(analyst) });
    expect(reading.body.data.actions).toEqual([]);
    expect((await api('/api/data-lab/pulse-surveys', { headers: bearer(sales[0]?.user as TestUser) })).status).toBe(403);
    expect((await api(`/api/data-lab/pulse-surveys/${survey.id}/results`, { headers: bearer(sales[0]?.user as TestUser) })).status).toBe(403);
  });
});
