import type { Knex } from 'knex';
import { type Caller, type CompanyScope, companyScope } from '../access/caller.js';
import { emailsOfUsers } from '../access/usersStore.js';
import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';
import { HttpError, badRequest, notFound, nulRefused } from '../kernel/errors.js';
import { versionConflict, versionOf, writeAtVersion, updateAtVersion } from '../kernel/versions.js';
import { employeeNames, employeeOfUser } from './peopleReads.js';
import { emit } from '../platform/events.js';
import { availableActions, history, recordNote, transition } from '../workflow/service.js';
import { type AnswerReader, type PayInformationAnswer, answerFigures, answerReader, prepareAnswer } from './answer.js';
import { dayOf, deadlines } from './dates.js';
import { ensureYearlyNotice, mailNotice, queueClarificationReminder, queueReminder, recordNotice } from './jobs.js';
import { type NotifyPorts, answeringUsers, mailClarificationAsked, mailClarificationReplied, mailDelivered, mailFiled } from './notify.js';
import { presentNotice } from './present.js';
import { type ClarificationRow, type RequestRow, clarificationsByRequest, clarificationsOf, findClarification, findNotice, findRequest, insertClarification, insertRequest, insertSettingsRow, listNotices, listRequests, openClarificationOf, openRequestOf, requestsOf, settingsOf } from './store.js';
import { transparencyRules } from './settings.js';
import { PAY_INFORMATION_SUBJECT, payInformationWorkflow } from './workflow.js';
import type { ServiceContext } from '../kernel/operations.js';

type Schemas = components['schemas'];
type PayInformationRequest = Schemas['PayInformationRequest'];

/** Work for after the request's writes are committed (e-mail about them). */
export type AfterCommit = (task: () => Promise<unknown>) => void;

const today = (): string => dayOf(new Date());

function cleanText(value: string | undefined, field: string): string | null {
  const text = value?.trim() ?? '';
  if (text.includes('\u0000')) throw nulRefused(field);
  return text || null;
}

function presentClarification(row: ClarificationRow): Schemas['PayInformationClarification'] {
  const open = row.state === 'open';
  return {
    id: row.id,
    state: open ? 'open' : 'replied',
    question: row.question,
    askedOn: row.asked_on,
    dueOn: row.due_on,
    reminderOn: row.reminder_on,
    overdue: open && today() > row.due_on,
    reply: row.reply,
    repliedAt: row.replied_at ? new Date(row.replied_at).toISOString() : null,
    answer: row.answer ? (JSON.parse(row.answer) as PayInformationAnswer) : null,
    version: Number(row.version),
  };
}

/**
 * Whether a waiting answer's figures are no longer what people data gives today (a pay record,
 * a colleague or the publication minimum changed since it was prepared): HR prepares it again
 * before delivering it. Delivered answers are what the employee was told and are not checked.
 */
async function isStale(db: Knex, scope: CompanyScope, row: RequestRow, reader: AnswerReader): Promise<boolean> {
  const fresh = await prepareAnswer(db, scope, { employeeId: row.employee_id, asOf: reader.asOf, reader });
  return answerFigures(fresh) !== answerFigures(JSON.parse(row.answer) as PayInformationAnswer);
}

async function presentRequest(db: Knex, scope: CompanyScope, row: RequestRow, options: { caller: Caller; forEmployee: boolean; clarifications?: ClarificationRow[]; reader?: AnswerReader }): Promise<PayInformationRequest> {
  const names = await employeeNames(db, scope, [row.employee_id]);
  const state = row.state === 'delivered' ? 'delivered' : 'review';
  const version = Number(row.version);
  const delivered = state === 'delivered';
  const subject = { subjectType: PAY_INFORMATION_SUBJECT, subjectId: row.id, currentState: state, version } as const;
  const entries = options.forEmployee ? [] : await history(db, scope, PAY_INFORMATION_SUBJECT, row.id);
  const clarifications = options.clarifications ?? (await clarificationsByRequest(db, scope, [row.id])).get(row.id) ?? [];
  const stale = options.forEmployee || delivered ? null : await isStale(db, scope, row, options.reader ?? (await answerReader(db, scope, today())));
  return {
    id: row.id,
    state,
    overdue: !delivered && today() > row.due_on,
    employee: { id: row.employee_id, name: names.get(row.employee_id) ?? 'Former employee' },
    message: row.message,
    filedOn: row.filed_on,
    dueOn: row.due_on,
    reminderOn: row.reminder_on,
    remindedAt: options.forEmployee || !row.reminded_at ? null : new Date(row.reminded_at).toISOString(),
    deliveredAt: row.delivered_at ? new Date(row.delivered_at).toISOString() : null,
    // The employee sees the answer and the note once HR delivered them, never the draft.
    note: options.forEmployee && !delivered ? null : row.note,
    answer: options.forEmployee && !delivered ? null : (JSON.parse(row.answer) as PayInformationAnswer),
    stale,
    clarifications: clarifications.map(presentClarification),
    actions: options.forEmployee ? [] : (await availableActions(payInformationWorkflow, subject, options.caller)).map((action) => action.action),
    history: entries.map((entry) => ({ action: entry.action, from: entry.from, to: entry.to, actor: entry.actor.name, comment: entry.comment, at: entry.at })),
    version,
  };
}

/** Requests presented together: their clarifications read at once, today's pay levels read once for the staleness of waiting answers. */
async function presentRequests(db: Knex, scope: CompanyScope, rows: RequestRow[], options: { caller: Caller; forEmployee: boolean }): Promise<PayInformationRequest[]> {
  const clarifications = await clarificationsByRequest(db, scope, rows.map((row) => row.id));
  const reader = !options.forEmployee && rows.some((row) => row.state !== 'delivered') ? await answerReader(db, scope, today()) : undefined;
  const presented: PayInformationRequest[] = [];
  for (const row of rows) presented.push(await presentRequest(db, scope, row, { ...options, clarifications: clarifications.get(row.id) ?? [], reader }));
  return presented;
}

// ── the employee's side ─────────────────────────────────────────────────────────────────────

export async function myPayInformation(ctx: Pick<ServiceContext, 'db' | 'caller'>): Promise<Schemas['MyPayInformation']> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const employee = await employeeOfUser(db, scope, caller.userId);
  const rows = await listRequests(db, scope, { requesterUserId: caller.userId });
  const notice = await findNotice(db, scope, new Date().getUTCFullYear());
  return {
    hasEmployeeRecord: employee !== undefined,
    notice: notice ? presentNotice(notice) : null,
    requests: await presentRequests(db, scope, rows, { caller, forEmployee: true }),
  };
}

export async function myRequest(ctx: Pick<ServiceContext, 'db' | 'caller'>, requestId: string): Promise<PayInformationRequest> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const row = await findRequest(db, scope, requestId);
  // Only one's own: anyone else's request does not exist for the caller.
  if (!row || row.requester_user_id !== caller.userId) throw notFound();
  return presentRequest(db, scope, row, { caller, forEmployee: true });
}

/**
 * Files a request for the caller's own pay information: the answer is prepared at once from people
 * data of today, the due date set two months ahead and HR's reminder queued two weeks before it.
 */
export async function fileRequest(ctx: Pick<ServiceContext, 'db' | 'caller'>, options: { body: { message?: string } | undefined; ports: NotifyPorts; afterCommit: AfterCommit }): Promise<PayInformationRequest> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const message = cleanText(options.body?.message, 'body.message');
  const filed = await db.transaction(async (trx) => {
    const employee = await employeeOfUser(trx, scope, caller.userId);
    if (!employee) {
      throw new HttpError(409, 'no_employee_record', { message: 'Your sign-in is not linked to an employee record, so there is no pay to tell you about. Ask HR to link it.' });
    }
    const open = await openRequestOf(trx, scope, caller.userId);
    if (open) throw new HttpError(409, 'request_open', { message: `Your request of ${open.filed_on} is still being answered (by ${open.due_on}).` });
    const filedOn = today();
    const { dueOn, reminderOn } = deadlines(filedOn);
    const answer = await prepareAnswer(trx, scope, { employeeId: employee.employeeId, asOf: filedOn });
    const now = new Date().toISOString();
    const fresh: RequestRow = {
      id: newId(),
      company_id: scope.companyId,
      employee_id: employee.employeeId,
      requester_user_id: caller.userId,
      state: payInformationWorkflow.initial,
      message,
      filed_on: filedOn,
      due_on: dueOn,
      reminder_on: reminderOn,
      answer: JSON.stringify(answer),
      note: null,
      reminded_at: null,
      delivered_at: null,
      version: 1,
      created_at: now,
      updated_at: now,
    };
    await insertRequest(trx, fresh);
    await recordNote(trx, scope, payInformationWorkflow, { subjectType: PAY_INFORMATION_SUBJECT, subjectId: fresh.id, currentState: 'review', version: 1 }, { action: 'file', actor: caller, comment: 'Answer prepared from people data.' });
    await queueReminder(trx, { companyId: scope.companyId, ownerUserId: caller.userId, requestId: fresh.id, reminderOn });
    await emit(trx, { name: 'payInformationRequest.filed', companyId: scope.companyId, actorUserId: caller.userId, subjectType: PAY_INFORMATION_SUBJECT, subjectId: fresh.id, payload: { dueOn } });
    return { fresh, employeeName: employee.name };
  });
  // HR is told at once; the addresses are read now, only the mailer works after the commit.
  const hr = (await answeringUsers(db, scope)).map((user) => user.email);
  options.afterCommit(() => mailFiled(options.ports, hr, { companyId: scope.companyId, employeeName: filed.employeeName, dueOn: filed.fresh.due_on, requestId: filed.fresh.id }));
  const row = filed.fresh;
  return presentRequest(db, scope, row, { caller, forEmployee: true });
}

// ── HR's side ───────────────────────────────────────────────────────────────────────────────

export async function listCompanyRequests(ctx: Pick<ServiceContext, 'db' | 'caller'>): Promise<PayInformationRequest[]> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const presented = await presentRequests(db, scope, await listRequests(db, scope), { caller, forEmployee: false });
  // What waits for HR first — an answer to approve or a clarification to reply to — by the nearest due date.
  const waitingDue = (entry: PayInformationRequest): string | null => (entry.state === 'review' ? entry.dueOn : (entry.clarifications.find((clarification) => clarification.state === 'open')?.dueOn ?? null));
  return presented
    .map((entry, index) => ({ entry, index, due: waitingDue(entry) }))
    .sort((a, b) => (a.due === null ? 1 : 0) - (b.due === null ? 1 : 0) || (a.due !== null && b.due !== null ? a.due.localeCompare(b.due) : 0) || a.index - b.index)
    .map(({ entry }) => entry);
}

async function requestRow(db: Knex, scope: CompanyScope, requestId: string): Promise<RequestRow> {
  const row = await findRequest(db, scope, requestId);
  if (!row) throw notFound();
  return row;
}

export async function companyRequest(ctx: Pick<ServiceContext, 'db' | 'caller'>, requestId: string): Promise<PayInformationRequest> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  return presentRequest(db, scope, await requestRow(db, scope, requestId), { caller, forEmployee: false });
}

const WHAT = 'this request for pay information';

/** HR's note to the employee, delivered with the answer; only while the request waits for review. */
export async function updateNote(ctx: Pick<ServiceContext, 'db' | 'caller'>, options: { requestId: string; ifMatch: string; note: string }): Promise<PayInformationRequest> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const version = versionOf(options.ifMatch);
  const note = cleanText(options.note, 'body.note');
  const row = await db.transaction(async (trx) => {
    const current = await requestRow(trx, scope, options.requestId);
    if (Number(current.version) !== version) throw versionConflict(WHAT, Number(current.version));
    if (current.state !== 'review') throw new HttpError(409, 'invalid_transition', { message: 'A delivered answer is what the employee was told: its note no longer changes.' });
    const changes = { note, updated_at: new Date().toISOString() };
    const next = await updateAtVersion(() => requestsOf(trx, scope).andWhere({ id: current.id }), version, changes, WHAT);
    await emit(trx, { name: 'payInformationRequest.noteEdited', companyId: scope.companyId, actorUserId: caller.userId, subjectType: PAY_INFORMATION_SUBJECT, subjectId: current.id, payload: { version: next } });
    return { ...current, ...changes, version: next };
  });
  return presentRequest(db, scope, row, { caller, forEmployee: false });
}

/**
 * Approves the prepared answer: it is delivered to the employee (in the app, and by e-mail after
 * the commit). The criteria are the company's text at delivery, so a text written after the
 * request was filed reaches the employee.
 */
export async function approveRequest(ctx: Pick<ServiceContext, 'db' | 'caller'>, options: { requestId: string; ifMatch: string; comment?: string; ports: NotifyPorts; afterCommit: AfterCommit }): Promise<PayInformationRequest> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const version = versionOf(options.ifMatch);
  const row = await db.transaction(async (trx) => {
    const current = await requestRow(trx, scope, options.requestId);
    if (Number(current.version) !== version) throw versionConflict(WHAT, Number(current.version));
    const state = current.state === 'delivered' ? 'delivered' : 'review';
    if (state === 'review' && (await isStale(trx, scope, current, await answerReader(trx, scope, today())))) {
      throw new HttpError(409, 'answer_stale', { message: 'People data changed since this answer was prepared: prepare it again, check it and then deliver it.' });
    }
    const moved = await transition(trx, scope, payInformationWorkflow, { subject: { subjectType: PAY_INFORMATION_SUBJECT, subjectId: current.id, currentState: state, version }, action: 'approve', actor: caller, comment: options.comment });
    const rules = await transparencyRules(trx, scope);
    const answer = JSON.parse(current.answer) as PayInformationAnswer;
    if (rules.criteria.trim()) answer.criteria = rules.criteria.trim();
    const changes = { state: moved.state, answer: JSON.stringify(answer), delivered_at: moved.at, updated_at: moved.at };
    const next = await updateAtVersion(() => requestsOf(trx, scope).andWhere({ id: current.id }), version, changes, WHAT);
    await emit(trx, { name: 'payInformationRequest.delivered', companyId: scope.companyId, actorUserId: caller.userId, subjectType: PAY_INFORMATION_SUBJECT, subjectId: current.id, payload: { dueOn: current.due_on, onTime: moved.at.slice(0, 10) <= current.due_on } });
    return { ...current, ...changes, version: next };
  });
  // The address is read now: after the commit only the mailer (with its own connection) is used.
  const email = (await emailsOfUsers(db, scope, [row.requester_user_id])).get(row.requester_user_id);
  options.afterCommit(() => mailDelivered(options.ports, email, scope.companyId));
  return presentRequest(db, scope, row, { caller, forEmployee: false });
}

/**
 * Prepares a waiting answer again from people data of today — after a pay record, a colleague or
 * the publication minimum changed since it was prepared — at the version read; HR's note stays.
 */
export async function prepareAgain(ctx: Pick<ServiceContext, 'db' | 'caller'>, options: { requestId: string; ifMatch: string }): Promise<PayInformationRequest> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const version = versionOf(options.ifMatch);
  const row = await db.transaction(async (trx) => {
    const current = await requestRow(trx, scope, options.requestId);
    if (Number(current.version) !== version) throw versionConflict(WHAT, Number(current.version));
    if (current.state !== 'review') throw new HttpError(409, 'invalid_transition', { message: 'A delivered answer is what the employee was told: it is not prepared again. If they find it inaccurate, they ask for clarification and the reply can carry new figures.' });
    const asOf = today();
    const answer = await prepareAnswer(trx, scope, { employeeId: current.employee_id, asOf });
    const changes = { answer: JSON.stringify(answer), updated_at: new Date().toISOString() };
    const next = await updateAtVersion(() => requestsOf(trx, scope).andWhere({ id: current.id }), version, changes, WHAT);
    await recordNote(trx, scope, payInformationWorkflow, { subjectType: PAY_INFORMATION_SUBJECT, subjectId: current.id, currentState: 'review', version: next }, { action: 'prepare', actor: caller, comment: `Answer prepared again from people data of ${asOf}.` });
    await emit(trx, { name: 'payInformationRequest.prepared', companyId: scope.companyId, actorUserId: caller.userId, subjectType: PAY_INFORMATION_SUBJECT, subjectId: current.id, payload: { version: next, asOf } });
    return { ...current, ...changes, version: next };
  });
  return presentRequest(db, scope, row, { caller, forEmployee: false });
}

// ── clarification (Article 7(5)) ────────────────────────────────────────────────────────────

/**
 * The worker finds a delivered answer inaccurate or incomplete and asks for clarification: HR owes a
 * reasoned reply, due two months after the question (the Directive's time limit for the answer,
 * Art. 7(4)), reminded two weeks before. One question waits at a time per answer.
 */
export async function askClarification(ctx: Pick<ServiceContext, 'db' | 'caller'>, options: { requestId: string; question: string; ports: NotifyPorts; afterCommit: AfterCommit }): Promise<PayInformationRequest> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const question = cleanText(options.question, 'body.question');
  if (!question) throw badRequest('Say what is inaccurate or incomplete in the answer.', [{ field: 'body.question', message: 'is required' }]);
  const asked = await db.transaction(async (trx) => {
    const request = await findRequest(trx, scope, options.requestId);
    if (!request || request.requester_user_id !== caller.userId) throw notFound();
    if (request.state !== 'delivered') throw new HttpError(409, 'not_delivered', { message: 'Your answer has not been delivered yet: you can ask for clarification once you have read it.' });
    const open = await openClarificationOf(trx, scope, request.id);
    if (open) throw new HttpError(409, 'clarification_open', { message: `Your question of ${open.asked_on} is still being answered (by ${open.due_on}).` });
    const askedOn = today();
    const { dueOn, reminderOn } = deadlines(askedOn);
    const now = new Date().toISOString();
    const row: ClarificationRow = {
      id: newId(),
      company_id: scope.companyId,
      request_id: request.id,
      state: 'open',
      question,
      asked_on: askedOn,
      due_on: dueOn,
      reminder_on: reminderOn,
      reply: null,
      answer: null,
      replied_by: null,
      replied_at: null,
      reminded_at: null,
      version: 1,
      created_at: now,
      updated_at: now,
    };
    await insertClarification(trx, row);
    await recordNote(trx, scope, payInformationWorkflow, { subjectType: PAY_INFORMATION_SUBJECT, subjectId: request.id, currentState: 'delivered', version: Number(request.version) }, { action: 'clarify', actor: caller, comment: question });
    await queueClarificationReminder(trx, { companyId: scope.companyId, ownerUserId: caller.userId, clarificationId: row.id, reminderOn });
    await emit(trx, { name: 'payInformationRequest.clarificationAsked', companyId: scope.companyId, actorUserId: caller.userId, subjectType: PAY_INFORMATION_SUBJECT, subjectId: request.id, payload: { clarificationId: row.id, dueOn } });
    return { request, row };
  });
  const names = await employeeNames(db, scope, [asked.request.employee_id]);
  const hr = (await answeringUsers(db, scope)).map((user) => user.email);
  options.afterCommit(() => mailClarificationAsked(options.ports, hr, { companyId: scope.companyId, employeeName: names.get(asked.request.employee_id) ?? 'An employee', dueOn: asked.row.due_on, requestId: asked.request.id }));
  return presentRequest(db, scope, asked.request, { caller, forEmployee: true });
}

/**
 * HR's reasoned reply to a request for clarification, at the clarification's version; with
 * `prepareAgain` it carries the answer prepared again from people data of today (the delivered
 * answer stays as it was told). The worker is told by e-mail.
 */
export async function replyClarification(ctx: Pick<ServiceContext, 'db' | 'caller'>, options: { requestId: string; clarificationId: string; ifMatch: string; reply: string; prepareAgain?: boolean; ports: NotifyPorts; afterCommit: AfterCommit }): Promise<PayInformationRequest> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const version = versionOf(options.ifMatch);
  const reply = cleanText(options.reply, 'body.reply');
  if (!reply) throw badRequest('A reply gives its reasons: write them.', [{ field: 'body.reply', message: 'is required' }]);
  const replied = await db.transaction(async (trx) => {
    const request = await requestRow(trx, scope, options.requestId);
    const current = await findClarification(trx, scope, request.id, options.clarificationId);
    if (!current) throw notFound();
    if (Number(current.version) !== version) throw versionConflict('this request for clarification', Number(current.version));
    if (current.state !== 'open') throw new HttpError(409, 'already_replied', { message: 'This question has its reply already: the worker can ask again.' });
    const answer = options.prepareAgain ? await prepareAnswer(trx, scope, { employeeId: request.employee_id, asOf: today() }) : null;
    const now = new Date().toISOString();
    const changes = { state: 'replied', reply, answer: answer ? JSON.stringify(answer) : null, replied_by: caller.userId, replied_at: now, updated_at: now };
    await updateAtVersion(() => clarificationsOf(trx, scope).andWhere({ id: current.id }), version, changes, 'this request for clarification');
    await recordNote(trx, scope, payInformationWorkflow, { subjectType: PAY_INFORMATION_SUBJECT, subjectId: request.id, currentState: 'delivered', version: Number(request.version) }, { action: 'reply', actor: caller, comment: reply });
    await emit(trx, {
      name: 'payInformationRequest.clarificationReplied',
      companyId: scope.companyId,
      actorUserId: caller.userId,
      subjectType: PAY_INFORMATION_SUBJECT,
      subjectId: request.id,
      payload: { clarificationId: current.id, dueOn: current.due_on, onTime: now.slice(0, 10) <= current.due_on, withFigures: answer !== null },
    });
    return request;
  });
  const email = (await emailsOfUsers(db, scope, [replied.requester_user_id])).get(replied.requester_user_id);
  options.afterCommit(() => mailClarificationReplied(options.ports, email, { companyId: scope.companyId, withFigures: Boolean(options.prepareAgain) }));
  return presentRequest(db, scope, replied, { caller, forEmployee: false });
}

// ── settings and the yearly notice ──────────────────────────────────────────────────────────

async function presentSettings(db: Knex, scope: CompanyScope): Promise<Schemas['PayTransparencySettings']> {
  const rules = await transparencyRules(db, scope);
  const queued = (await db('jobs').where({ company_id: scope.companyId, type: 'payTransparencyYearlyNotice', status: 'queued' }).first('run_after')) as { run_after: string | Date } | undefined;
  return {
    ...rules,
    notices: (await listNotices(db, scope)).map(presentNotice),
    nextNoticeOn: queued ? new Date(queued.run_after).toISOString().slice(0, 10) : null,
  };
}

export const settings = (ctx: Pick<ServiceContext, 'db' | 'caller'>) => presentSettings(ctx.db, companyScope(ctx.caller));

export async function updateSettings(ctx: Pick<ServiceContext, 'db' | 'caller'>, options: { ifMatch: string; body: Schemas['PayTransparencySettingsInput'] }): Promise<Schemas['PayTransparencySettings']> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const version = versionOf(options.ifMatch);
  const { body } = options;
  const criteria = body.criteria.trim();
  if (criteria.includes('\u0000')) throw nulRefused('body.criteria');
  await db.transaction(async (trx) => {
    const now = new Date().toISOString();
    const columns = { criteria, publication_minimum: body.publicationMinimum, updated_by: caller.userId, updated_at: now };
    const stored = await settingsOf(trx, scope).first('version');
    if (!stored) {
      if (version !== 0) throw versionConflict('the pay-transparency settings', 0);
      await insertSettingsRow(trx, { company_id: scope.companyId, ...columns, version: 1 });
    } else if (!(await writeAtVersion(() => settingsOf(trx, scope), version, columns))) {
      throw versionConflict('the pay-transparency settings', Number((stored as { version: number }).version));
    }
    await emit(trx, { name: 'payTransparency.settingsUpdated', companyId: scope.companyId, actorUserId: caller.userId, subjectType: 'payTransparencySettings', payload: { version: version + 1, publicationMinimum: body.publicationMinimum } });
    await ensureYearlyNotice(trx, { companyId: scope.companyId, ownerUserId: caller.userId, after: new Date() });
  });
  return presentSettings(db, scope);
}

/** The button: this year's notice now, unless it went out already this year (409 `already_sent`). */
export async function sendNoticeNow(ctx: Pick<ServiceContext, 'db' | 'caller'>, options: { ports: NotifyPorts; afterCommit: AfterCommit }): Promise<Schemas['PayTransparencyNotice']> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const now = new Date();
  const sent = await db.transaction(async (trx) => {
    const recorded = await recordNotice(trx, scope, { year: now.getUTCFullYear(), trigger: 'button', actorUserId: caller.userId, now });
    await ensureYearlyNotice(trx, { companyId: scope.companyId, ownerUserId: caller.userId, after: now });
    return recorded;
  });
  options.afterCommit(() => mailNotice(options.ports, scope.companyId, sent));
  return presentNotice(sent.notice);
}

