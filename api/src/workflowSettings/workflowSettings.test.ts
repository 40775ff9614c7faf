import type { Knex } from 'knex';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, baseUrl, request } from '../../test/http.js';
import type { components } from '../contract-types.js';
import { until } from '../../test/waiting.js';
import { insertEmployee } from '../team/test/fixtures.js';

type Schemas = components['schemas'];
type Data<T> = { data: T };
type Settings = Schemas['WorkflowSettings'];
type Approval = Schemas['BandSetApproval'];
type ChainImport = Schemas['ApprovalChainImport'];

describe('workflow settings: who approves what', () => {
  let db: Knex;
  let company: TestCompany;
  let other: TestCompany;
  let admin: TestUser;
  let planner: TestUser;
  let analyst: TestUser;
  let employee: TestUser;
  let otherAdmin: TestUser;
  let bossId = '';
  let bossEmail = '';

  const call = <T>(user: TestUser, url: string, init: { method?: string; json?: unknown; ifMatch?: number; csv?: string } = {}) =>
    request<T & ErrorBody>(url, {
      method: init.method ?? 'GET',
      headers: { ...bearer(user), ...(init.ifMatch !== undefined ? { 'If-Match': `"${init.ifMatch}"` } : {}), ...(init.csv !== undefined ? { 'Content-Type': 'text/csv' } : {}) },
      ...(init.json !== undefined ? { json: init.json } : {}),
      ...(init.csv !== undefined ? { body: init.csv } : {}),
    });

  const switchOn = async (companyId: string, flags: string[]) => {
    const support = await createTestUser(db, { companyId, internalAdmin: true });
    for (const flag of flags) expect((await call(support, `/api/internal/companies/${companyId}/release-flags/${flag}`, { method: 'PUT', json: { enabled: true } })).status).toBe(200);
  };

  /** A draft band set with one band (Software Engineering P3), ready to publish. */
  const draftSet = async (name: string): Promise<Schemas['BandSetDetail']> => {
    const set = await call<Data<Schemas['BandSetDetail']>>(admin, '/api/bands/band-sets', { method: 'POST', json: { name, currency: 'USD' } });
    expect(set.status, JSON.stringify(set.body)).toBe(201);
    const built = await call<Data<Schemas['BandBuildResult']>>(admin, `/api/bands/band-sets/${set.body.data.id}/build`, { method: 'POST', json: { targetPercentile: 50, width: { kind: 'plusMinus', percent: 20 } } });
    expect(built.status, JSON.stringify(built.body)).toBe(200);
    return built.body.data.bandSet;
  };

  const approvalOf = async (user: TestUser, bandSetId: string): Promise<Approval> => {
    const reply = await call<Data<Approval>>(user, `/api/band-set-approvals/${bandSetId}`);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return reply.body.data;
  };

  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'Workflow Co');
    other = await createTestCompany(db, 'Other Workflow Co');
    const user = (key: string): TestUser => {
      const found = company.users[key];
      if (!found) throw new Error(`no ${key} in the test company`);
      return found;
    };
    [admin, planner, analyst, employee] = [user('admin'), user('compensation_planner'), user('analyst'), user('employee')];
    otherAdmin = other.users.admin as TestUser;
    await switchOn(company.id, ['bands', 'compensation_planning']);
    await switchOn(other.id, ['bands', 'compensation_planning']);
    bossEmail = `boss-${company.id.slice(-6)}@workflow.test`;
    bossId = await insertEmployee(db, company.id, { firstName: '=HYPERLINK("x")', lastName: 'Boss', email: bossEmail, levelId: 'm5' });
    await insertEmployee(db, company.id, { firstName: 'Ivy', lastName: 'Report', managerId: bossId });
    expect((await call(admin, '/api/bands/jobs', { method: 'POST', json: { jobFamilyId: 'software_engineering', levelId: 'p3' } })).status).toBe(201);
  });

  it('starts empty at version 0, reads with companySettings view, and refuses to write without edit', async () => {
    const read = await call<Data<Settings>>(planner, '/api/workflow-settings');
    expect(read.status).toBe(200);
    expect(read.headers.get('etag')).toBe('"0"');
    expect(read.body.data).toEqual({ version: 0, meritChains: [], bandPublicationApprovers: [], updatedAt: null });
    expect((await call(employee, '/api/workflow-settings')).status).toBe(403);
    const refused = await call(planner, '/api/workflow-settings', { method: 'PUT', ifMatch: 0, json: { bandPublicationApproverUserIds: [analyst.id] } });
    expect(refused.status).toBe(403);
  });

  it('refuses approvers who could not act, naming each, and writes nothing', async () => {
    const reply = await call(admin, '/api/workflow-settings', { method: 'PUT', ifMatch: 0, json: { bandPublicationApproverUserIds: [employee.id, otherAdmin.id], meritChains: [{ branchEmployeeId: null, reviewerUserIds: [analyst.id, analyst.id] }] } });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe('Some approval rules cannot be saved.');
    expect(reply.body.errors).toEqual([
      { field: 'body.meritChains.0.reviewerUserIds', message: 'names a reviewer twice' },
      { field: 'body.bandPublicationApproverUserIds.0', message: `Test ${employee.email.split('@')[0]} cannot see salary bands (the bands permission)` },
      { field: 'body.bandPublicationApproverUserIds.1', message: `${otherAdmin.id} is not a user of this company` },
    ]);
    expect((await call<Data<Settings>>(admin, '/api/workflow-settings')).body.data.version).toBe(0);
  });

  it('saves the rules at the version read, and refuses a stale version with 409, keeping what was stored', async () => {
    const saved = await call<Data<Settings>>(admin, '/api/workflow-settings', {
      method: 'PUT',
      ifMatch: 0,
      json: { bandPublicationApproverUserIds: [analyst.id, admin.id], meritChains: [{ branchEmployeeId: bossId, reviewerUserIds: [admin.id] }, { branchEmployeeId: null, reviewerUserIds: [analyst.id, admin.id] }] },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.headers.get('etag')).toBe('"1"');
    expect(saved.body.data.version).toBe(1);
    expect(saved.body.data.bandPublicationApprovers.map((approver) => approver.email)).toEqual([analyst.email, admin.email]);
    // The whole company's chain first, then the branch, named by its manager.
    expect(saved.body.data.meritChains.map((chain) => [chain.branchName, chain.branchEmail, chain.reviewers.map((reviewer) => reviewer.email)])).toEqual([
      [null, null, [analyst.email, admin.email]],
      ['=HYPERLINK("x") Boss', bossEmail, [admin.email]],
    ]);

    const stale = await call(admin, '/api/workflow-settings', { method: 'PUT', ifMatch: 0, json: { bandPublicationApproverUserIds: [] } });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('version_conflict');
    expect(stale.body.message).toBe('Someone else changed the workflow settings first. Reload and try again.');
    expect(stale.headers.get('etag')).toBe('"1"');
    expect((await call<Data<Settings>>(admin, '/api/workflow-settings')).body.data.bandPublicationApprovers).toHaveLength(2);
  });

  it('makes publishing a band set wait for each approver in order; the last approval makes it live', async () => {
    const draft = await draftSet('Needs approval');
    const published = await call<Data<Schemas['BandSetDetail']>>(admin, `/api/bands/band-sets/${draft.id}/publish`, { method: 'POST', ifMatch: draft.version, json: { comment: 'Ready for review' } });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    expect(published.body.data.status).toBe('pendingApproval');
    expect(published.body.data.publishedAt).toBeNull();

    let approval = await approvalOf(admin, draft.id);
    expect(approval.awaiting).toEqual([analyst.id]);
    expect(approval.approvers.map((approver) => [approver.email, approver.decision])).toEqual([
      [analyst.email, null],
      [admin.email, null],
    ]);
    expect(approval.submittedBy?.email).toBe(admin.email);

    // Not the admin's turn yet; a pending set does not change either.
    const early = await call(admin, `/api/band-set-approvals/${draft.id}/approve`, { method: 'POST', ifMatch: approval.version, json: {} });
    expect(early.status).toBe(403);
    expect(early.body.message).toBe('This band set is not waiting for your approval.');
    const band = published.body.data.bands[0];
    if (!band) throw new Error('no band built');
    const locked = await call(admin, `/api/bands/band-sets/${draft.id}/bands/${band.id}`, { method: 'PATCH', ifMatch: band.version, json: { min: band.min, mid: band.mid, max: band.max } });
    expect(locked.status).toBe(409);
    expect(locked.body.message).toBe('This band set is pending approval and cannot change; duplicate it into a draft to work on it.');

    const first = await call<Data<Approval>>(analyst, `/api/band-set-approvals/${draft.id}/approve`, { method: 'POST', ifMatch: approval.version, json: { comment: 'Fine by me' } });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data.status).toBe('pendingApproval');
    expect(first.body.data.awaiting).toEqual([admin.id]);
    // A decision at a version read before the first one is refused.
    expect((await call(admin, `/api/band-set-approvals/${draft.id}/approve`, { method: 'POST', ifMatch: approval.version, json: {} })).status).toBe(409);

    approval = first.body.data;
    // Only the approver it waits for is told, each in turn, by e-mail.
    const subject = 'Paybench: The band set “Needs approval” waits for your approval before it goes live.';
    await until(async () => Boolean(await db('outbox_emails').where({ to_address: analyst.email, subject }).first()));
    await until(async () => Boolean(await db('outbox_emails').where({ to_address: admin.email, subject }).first()));
    const last = await call<Data<Approval>>(admin, `/api/band-set-approvals/${draft.id}/approve`, { method: 'POST', ifMatch: approval.version, json: {} });
    expect(last.status, JSON.stringify(last.body)).toBe(200);
    expect(last.body.data.status).toBe('live');
    expect(last.body.data.awaiting).toEqual([]);
    expect(last.body.data.approvers.map((approver) => approver.decision)).toEqual(['approved', 'approved']);

    const history = await call<Data<Schemas['BandSetHistoryEntry'][]>>(admin, `/api/bands/band-sets/${draft.id}/history`);
    expect(history.body.data.map((entry) => [entry.action, entry.from, entry.to])).toEqual([
      ['submit', 'draft', 'pendingApproval'],
      ['recordApproval', 'pendingApproval', 'pendingApproval'],
      ['approve', 'pendingApproval', 'live'],
    ]);
  });

  it('sends a band set back to draft when an approver rejects it, with the reason required', async () => {
    const draft = await draftSet('Rejected one');
    const published = await call<Data<Schemas['BandSetDetail']>>(admin, `/api/bands/band-sets/${draft.id}/publish`, { method: 'POST', ifMatch: draft.version, json: {} });
    expect(published.body.data.status).toBe('pendingApproval');
    const noReason = await call(analyst, `/api/band-set-approvals/${draft.id}/reject`, { method: 'POST', ifMatch: published.body.data.version, json: {} });
    expect(noReason.status).toBe(400);
    const rejected = await call<Data<Approval>>(analyst, `/api/band-set-approvals/${draft.id}/reject`, { method: 'POST', ifMatch: published.body.data.version, json: { comment: 'Too wide' } });
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
    expect(rejected.body.data.status).toBe('draft');
    expect(rejected.body.data.awaiting).toEqual([]);
    expect(rejected.body.data.approvers.map((approver) => approver.decision)).toEqual(['rejected', null]);
    // Nothing to approve on a draft.
    const again = await call(analyst, `/api/band-set-approvals/${draft.id}/approve`, { method: 'POST', ifMatch: rejected.body.data.version, json: {} });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('invalid_transition');
  });

  it('answers 404 for another company’s band set and merit cycle', async () => {
    const draft = await draftSet('Private');
    expect((await call(otherAdmin, `/api/band-set-approvals/${draft.id}`)).status).toBe(404);
    expect((await call(otherAdmin, `/api/band-set-approvals/${draft.id}/approve`, { method: 'POST', ifMatch: draft.version, json: {} })).status).toBe(404);
    const cycle = await call<Data<Schemas['MeritCycle']>>(admin, '/api/v2/meritCycles', { method: 'POST', json: { name: 'Private cycle', effectiveDate: '2026-01-01', periodStart: '2025-01-01', periodEnd: '2025-12-31' } });
    expect(cycle.status).toBe(201);
    expect((await call(otherAdmin, `/api/workflow-settings/merit-chains/import?dryRun=true&meritCycleId=${cycle.body.data.id}`, { method: 'POST', csv: 'Manager email,Approver 1 email\n,x@y.test\n' })).status).toBe(404);
    expect((await call(otherAdmin, `/api/workflow-settings/merit-chains/export?meritCycleId=${cycle.body.data.id}`, { method: 'POST' })).status).toBe(404);
  });

  it('starts a new merit cycle with the default chains', async () => {
    const created = await call<Data<Schemas['MeritCycle']>>(admin, '/api/v2/meritCycles', { method: 'POST', json: { name: 'Merit with defaults', effectiveDate: '2026-01-01', periodStart: '2025-01-01', periodEnd: '2025-12-31' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const chains = await call<Data<Schemas['ApprovalChain'][]>>(admin, `/api/v2/meritCycles/${created.body.data.id}/approvalChains`);
    expect(chains.status).toBe(200);
    expect(chains.body.data.map((chain) => [chain.branchEmployeeId, chain.reviewers.map((reviewer) => reviewer.userId)]).sort((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual(
      [
        [bossId, [admin.id]],
        [null, [analyst.id, admin.id]],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
  });

  it('checks a chains file line by line and writes nothing while any line is wrong', async () => {
    const csv = [
      'Manager email,Approver 1 email,Approver 2 email',
      `,${analyst.email},${admin.email}`,
      `${bossEmail},${planner.email},`,
      `nobody@nowhere.test,${analyst.email},`,
      `${bossEmail.toUpperCase()},${admin.email},`,
      `,,${admin.email}`,
      `${bossEmail.replace('boss', 'x')},stranger@elsewhere.test,${analyst.email}`,
    ].join('\n');
    const reply = await call<Data<ChainImport>>(admin, '/api/workflow-settings/merit-chains/import', { method: 'POST', ifMatch: 1, csv });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.data.applied).toBe(false);
    expect(reply.body.data.rowCount).toBe(6);
    expect(reply.body.data.problems).toEqual([
      { line: 4, column: 'Manager email', message: 'No employee of the company has the e-mail nobody@nowhere.test.' },
      { line: 5, column: 'Manager email', message: `The branch of ${bossEmail.toUpperCase()} already has a chain on line 3.` },
      { line: 6, column: 'Manager email', message: 'The whole company already has a chain on line 2.' },
      { line: 6, column: 'Approver 2 email', message: 'Approver 1 email is empty but Approver 2 email is not; approvers follow each other without gaps.' },
      { line: 7, column: 'Manager email', message: `No employee of the company has the e-mail ${bossEmail.replace('boss', 'x')}.` },
      { line: 7, column: 'Approver 1 email', message: 'No user of the company has the e-mail stranger@elsewhere.test.' },
    ]);
    expect((await call<Data<Settings>>(admin, '/api/workflow-settings')).body.data.version).toBe(1);

    const header = await call<Data<ChainImport>>(admin, '/api/workflow-settings/merit-chains/import?dryRun=true', { method: 'POST', csv: 'Branch,Reviewer\n,a@b.test\n' });
    expect(header.body.data.problems).toEqual([
      { line: 1, column: null, message: 'The file has no "Manager email" column.' },
      { line: 1, column: null, message: 'The file has no "Approver 1 email" column.' },
    ]);
  });

  it('imports a clean file after a dry run, at the version read, into the defaults or a cycle', async () => {
    const csv = ['Manager email,Approver 1 email,Approver 2 email', `${bossEmail},${planner.email},${admin.email}`, `,${admin.email},`].join('\r\n');
    const dry = await call<Data<ChainImport>>(admin, '/api/workflow-settings/merit-chains/import?dryRun=true', { method: 'POST', csv });
    expect(dry.body.data).toMatchObject({ dryRun: true, applied: false, problems: [], rowCount: 2, meritCycleId: null });
    expect(dry.body.data.chains.map((chain) => [chain.branchEmail, chain.reviewers.map((reviewer) => reviewer.email)])).toEqual([
      [null, [admin.email]],
      [bossEmail, [planner.email, admin.email]],
    ]);
    expect((await call<Data<Settings>>(admin, '/api/workflow-settings')).body.data.meritChains).toHaveLength(2);
    expect((await call<Data<Settings>>(admin, '/api/workflow-settings')).body.data.meritChains[0]?.reviewers).toHaveLength(2);

    const noVersion = await call(admin, '/api/workflow-settings/merit-chains/import', { method: 'POST', csv });
    expect(noVersion.status).toBe(428);
    const stale = await call(admin, '/api/workflow-settings/merit-chains/import', { method: 'POST', ifMatch: 0, csv });
    expect(stale.status).toBe(409);
    const applied = await call<Data<ChainImport>>(admin, '/api/workflow-settings/merit-chains/import', { method: 'POST', ifMatch: 1, csv });
    expect(applied.body.data.applied).toBe(true);
    const after = await call<Data<Settings>>(admin, '/api/workflow-settings');
    expect(after.body.data.version).toBe(2);
    expect(after.body.data.meritChains.map((chain) => chain.reviewers.map((reviewer) => reviewer.email))).toEqual([[admin.email], [planner.email, admin.email]]);

    // Into a cycle: at the cycle's version.
    const cycle = await call<Data<Schemas['MeritCycle']>>(admin, '/api/v2/meritCycles', { method: 'POST', json: { name: 'Chains from a file', effectiveDate: '2026-01-01', periodStart: '2025-01-01', periodEnd: '2025-12-31' } });
    const file = ['Manager email,Approver 1 email', `,${analyst.email}`].join('\n');
    const intoCycle = await call<Data<ChainImport>>(admin, `/api/workflow-settings/merit-chains/import?meritCycleId=${cycle.body.data.id}`, { method: 'POST', ifMatch: cycle.body.data.version, csv: file });
    expect(intoCycle.status, JSON.stringify(intoCycle.body)).toBe(200);
    expect(intoCycle.body.data).toMatchObject({ applied: true, meritCycleId: cycle.body.data.id });
    const chains = await call<Data<Schemas['ApprovalChain'][]>>(admin, `/api/v2/meritCycles/${cycle.body.data.id}/approvalChains`);
    expect(chains.body.data.map((chain) => [chain.branchEmployeeId, chain.reviewers.map((reviewer) => reviewer.userId)])).toEqual([[null, [analyst.id]]]);
    // The defaults did not move.
    expect((await call<Data<Settings>>(admin, '/api/workflow-settings')).body.data.version).toBe(2);
  });

  it('exports the chains as the CSV the import reads, a formula in a name kept as text', async () => {
    const reply = await call<Data<Schemas['Download']>>(admin, '/api/workflow-settings/merit-chains/export', { method: 'POST' });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body.data.filename).toBe('approval-chains.csv');
    const file = await fetch(`${baseUrl()}/api/downloads/${reply.body.data.id}`, { headers: bearer(admin) });
    expect(file.status).toBe(200);
    const text = (await file.text()).replace(/^\uFEFF/, '');
    expect(text.trim().split(/\r?\n/)).toEqual([
      'Manager email,Manager name,Approver 1 email,Approver 2 email',
      `,Whole company,${admin.email},`,
      `${bossEmail},"'=HYPERLINK(""x"") Boss",${planner.email},${admin.email}`,
    ]);
    // Read back as it is, the file changes nothing.
    const back = await call<Data<ChainImport>>(admin, '/api/workflow-settings/merit-chains/import?dryRun=true', { method: 'POST', csv: text });
    expect(back.body.data.problems).toEqual([]);
    expect(back.body.data.chains).toHaveLength(2);
  });

  it('keeps the stock exchange a company is listed on, only one the product knows', async () => {
    const read = await call<Data<Schemas['CompanySettings']>>(admin, '/api/company/settings');
    expect(read.body.data.stockExchange).toBeNull();
    const saved = await call<Data<Schemas['CompanySettings']>>(admin, '/api/company/settings', { method: 'PATCH', ifMatch: read.body.data.version, json: { stockExchange: 'XMAD' } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data.stockExchange).toBe('XMAD');
    const unknown = await call(admin, '/api/company/settings', { method: 'PATCH', ifMatch: saved.body.data.version, json: { stockExchange: 'ZZZZ' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('ZZZZ is not a stock exchange Paybench knows; pick one from the list.');
    const stale = await call(admin, '/api/company/settings', { method: 'PATCH', ifMatch: read.body.data.version, json: { stockExchange: 'XLON' } });
    expect(stale.status).toBe(409);
    const cleared = await call<Data<Schemas['CompanySettings']>>(admin, '/api/company/settings', { method: 'PATCH', ifMatch: saved.body.data.version, json: { stockExchange: null } });
    expect(cleared.body.data.stockExchange).toBeNull();
  });
});
