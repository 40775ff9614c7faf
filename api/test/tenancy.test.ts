import path from 'node:path';
import { Readable } from 'node:stream';
import pino from 'pino';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { dataLabFeatures, saveDataLabFeatures } from '../src/dataLab/subscription.js';
import { saveDownload } from '../src/downloads/service.js';
import { DirectoryStorage } from '../src/downloads/storage.js';
import { JobQueue } from '../src/jobs/queue.js';
import { loadContract } from '../src/http/contract.js';
import { allOperations } from '../src/modules.js';
import { fillPath, fillUrl, sampleBody } from './contractSamples.js';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from './factories.js';
import { type ErrorBody, request } from './http.js';
import { jobEnded } from './waiting.js';
import { newId } from '../src/db/ids.js';
import { marketFixtures } from '../src/market/test/fixtures.js';
import { insertEmployee } from '../src/team/test/fixtures.js';
import { type Call as PlanningCall, meritCycleFixtures, switchOnPlanning } from '../src/meritCycles/test/fixtures.js';

const contract = loadContract(path.resolve(import.meta.dirname, '..', '..', 'openapi.yaml'));
const accessOf = new Map<string, string>(allOperations.map((op) => [op.operationId, op.access.kind]));
const secured = contract.operations.filter((op) => !op.isPublic);
const withIds = secured.filter((op) => op.pathParameters.length > 0);

/**
 * Path parameters that name something other than a company's own record. `companyId` on the
 * internal tools is the point of those tools: internal staff reach every company by design.
 */
const CROSS_COMPANY_BY_DESIGN = new Set(['listCompanyReleaseFlags:companyId', 'setCompanyReleaseFlag:companyId', 'getCompanyEnterpriseTags:companyId', 'setCompanyEnterpriseTags:companyId', 'getCompanyErrorScreen:companyId', 'setCompanyErrorScreen:companyId', 'provisionCompanyAccount:companyId', 'fulfilCheckoutRequest:checkoutRequestId', 'getCompanyDataLabSubscription:companyId', 'setCompanyDataLabSubscription:companyId', 'resolveDomainClaim:companyDomainId', 'decideMarketParticipantRequest:companyId']);
/** Path parameters that are not ids (enumerations validated by the contract). */
const NOT_IDS = new Set(['flag']);

describe('every secured operation refuses a caller without a token', () => {
  it.each(secured.map((op) => [op.operationId, op] as const))('%s answers 401 with the reason', async (_id, op) => {
    const reply = await request<ErrorBody>(fillPath(op, { flag: 'bands' }), { method: op.method.toUpperCase(), json: sampleBody(contract, op) });
    expect(reply.status).toBe(401);
    expect(reply.body).toMatchObject({ code: 'unauthenticated', title: 'Permission denied', clientResponse: { message: 'missing_token' } });
  });

  it('refuses a token that was never issued, and says so', async () => {
    const reply = await request<ErrorBody>('/api/me', { headers: { Authorization: 'Bearer pb_not-a-real-token-at-all' } });
    expect(reply.status).toBe(401);
    expect(reply.body.clientResponse?.message).toBe('invalid');
  });
});

describe("another company's ids answer 404", () => {
  let a: TestCompany;
  let b: TestCompany;
  let ids: Record<string, string>;
  let bInternal: TestUser;

  beforeAll(async () => {
    const db = await testDb();
    a = await createTestCompany(db, 'Tenant A');
    b = await createTestCompany(db, 'Tenant B');
    const aInternal = await createTestUser(db, { companyId: a.id, internalAdmin: true });
    bInternal = await createTestUser(db, { companyId: b.id, internalAdmin: true });
    const aToken = await db('api_tokens').where({ user_id: a.users.admin?.id }).first<{ id: string }>();
    const session = await request<{ data: { id: string } }>('/api/v2/view-as-sessions', {
      method: 'POST',
      headers: bearer(aInternal),
      json: { userEmail: a.users.employee?.email, reason: 'tenancy test' },
    });
    const job = await new JobQueue(db, pino({ level: 'silent' }), undefined).enqueue({ companyId: a.id, ownerUserId: a.users.admin?.id ?? '', type: 'tenancyProbe', input: {} });
    const download = await saveDownload(db, new DirectoryStorage(path.join(inject('serverEnv').PAYBENCH_DATA_DIR ?? '', 'downloads')), {
      companyId: a.id,
      ownerUserId: a.users.admin?.id ?? '',
      jobId: job.id,
      kind: 'tenancyProbe',
      filename: 'a.csv',
      contentType: 'text/csv',
      permission: 'users',
      content: Readable.from(['salary\n']),
    });
    ids = {
      jobId: job.id,
      downloadId: download.id,
      tokenId: aToken.id,
      roleId: a.roleIds.get('admin') ?? '',
      userId: a.users.employee?.id ?? '',
      companyId: a.id,
      sessionId: session.body.data.id,
      // Market releases are shared by every company, so no release is company A's: an id of A's that is no release answers 404.
      releaseId: job.id,
      // Held-back contributions are internal admins' to see: an id of A's that is none answers 404.
      quarantineId: job.id,
      ...(await marketFixtures((path, json) => request(path, { method: 'POST', headers: bearer(a.users.admin as TestUser), json }))),
      employeeId: await insertEmployee(db, a.id, { firstName: 'Tenant', lastName: 'A' }),
    };
    // People records of A's: a pay record and a grant of A's employee, a candidate, an exchange rate.
    const postAsA = async (url: string, json: unknown) => (await request<{ data: { id: string } }>(url, { method: 'POST', headers: bearer(a.users.admin as TestUser), json })).body.data.id;
    ids.recordId = await postAsA(`/api/employees/${ids.employeeId}/compensation`, { type: 'base_salary', amount: { amount: 100_000_00, currency: 'USD' }, effectiveDate: '2024-01-01' });
    ids.grantId = await postAsA(`/api/employees/${ids.employeeId}/equity-grants`, { grantType: 'rsu', shares: 100, grantDate: '2024-01-01' });
    ids.candidateId = await postAsA('/api/candidates', { email: `candidate@${a.id.slice(-6)}.test`, firstName: 'Cand', lastName: 'A' });
    ids.exchangeRateId = await postAsA('/api/company/exchange-rates', { base: 'USD', quote: 'EUR', rate: '0.9', effectiveDate: '2024-01-01' });
    ids.accessRequestId = (await request<{ data: { id: string } }>('/api/access-requests', { method: 'POST', headers: bearer(a.users.employee as TestUser), json: { permission: 'benchmarking', reason: 'Tenancy' } })).body.data.id;
    // A collaborator outside company A invited to A's shared slice.
    ids.collaboratorId = (await request<{ data: { id: string } }>(`/api/benchmarking/shares/${ids.sliceId}/collaborators`, { method: 'POST', headers: bearer(a.users.admin as TestUser), json: { email: 'collaborator@outside.example' } })).body.data.id;
    // An invoice request of A's for premium benchmarking: internal staff fulfil it for any company.
    const checkout = (await request<{ data: { reference: string } }>('/api/benchmarking/checkout-session', { method: 'POST', headers: bearer(a.users.admin as TestUser), json: { plan: 'premium_annual' } })).body.data.reference;
    ids.checkoutRequestId = (await request<{ data: { id: string; reference: string }[] }>('/api/internal/checkout-requests', { headers: bearer(bInternal) })).body.data.find((r) => r.reference === checkout)?.id ?? 'no-checkout-request';
    // The team view answers 404 while it is off; switched on for B, its 404s are about A's ids.
    await request(`/api/internal/companies/${b.id}/release-flags/team_view`, { method: 'PUT', headers: bearer(bInternal), json: { enabled: true } });
  });

  beforeAll(async () => {
    // People-data imports and integrations of A's: an uploaded file, an import of it, a saved mapping, a connection.
    const asA = (extra: Record<string, string> = {}) => ({ ...bearer(a.users.admin as TestUser), ...extra });
    const file = await request<{ data: { id: string } }>('/api/people-imports/files?kind=employees', { method: 'POST', headers: asA({ 'content-type': 'text/csv' }), body: 'Employee ID,First Name,Last Name\nT1,Tenant,A\n' });
    ids.peopleImportFileId = file.body.data.id;
    ids.peopleImportRunId = (await request<{ data: { id: string } }>(`/api/people-imports/files/${file.body.data.id}/runs`, { method: 'POST', headers: asA(), json: { dryRun: true } })).body.data.id;
    ids.peopleImportMappingId = (await request<{ data: { id: string } }>('/api/people-imports/mappings', { method: 'PUT', headers: asA(), json: { kind: 'employees', name: 'Tenant A', mapping: { employeeId: 'Employee ID', firstName: 'First Name', lastName: 'Last Name' } } })).body.data.id;
    ids.integrationId = (await request<{ data: { id: string } }>('/api/integrations', { method: 'POST', headers: asA(), json: { kind: 'file_url', config: { url: 'http://127.0.0.1:9/people.csv', importKind: 'employees' } } })).body.data.id;
  });

  beforeAll(async () => {
    // Salary bands of A's (a pay zone, a company job, a band set built from market data, one of its bands), with bands on for both.
    const db = await testDb();
    const support = await createTestUser(db, { companyId: a.id, internalAdmin: true });
    await request(`/api/internal/companies/${a.id}/release-flags/bands`, { method: 'PUT', headers: bearer(support), json: { enabled: true } });
    await request(`/api/internal/companies/${b.id}/release-flags/bands`, { method: 'PUT', headers: bearer(bInternal), json: { enabled: true } });
    const asA = bearer(a.users.admin as TestUser);
    const postAsA = async (url: string, json: unknown) => (await request<{ data: { id: string } }>(url, { method: 'POST', headers: asA, json })).body.data;
    ids.payZoneId = (await postAsA('/api/bands/pay-zones', { name: 'Tenant A zone', rules: [{ country: 'GB' }] })).id;
    ids.companyJobId = (await postAsA('/api/bands/jobs', { jobFamilyId: 'software_engineering', levelId: 'p3' })).id;
    ids.bandSetId = (await postAsA('/api/bands/band-sets', { name: 'Tenant A bands' })).id;
    const built = await request<{ data: { bandSet: { currency: string; bands: { id: string }[] } } }>(`/api/bands/band-sets/${ids.bandSetId}/build`, { method: 'POST', headers: asA, json: { targetPercentile: 50, width: { kind: 'plusMinus', percent: 20 } } });
    ids.bandId = built.body.data.bandSet.bands[0]?.id ?? '';
    // A comp grade of A's and its band in A's zone.
    ids.gradeId = (await postAsA('/api/bands/grades', { key: 'G5' })).id;
    const amount = (value: number) => ({ amount: value, currency: built.body.data.bandSet.currency });
    ids.gradeBandId = (await postAsA(`/api/bands/band-sets/${ids.bandSetId}/grade-bands`, { gradeId: ids.gradeId, payZoneId: ids.payZoneId, min: amount(100), mid: amount(120), max: amount(140) })).id;
  });

  beforeAll(async () => {
    // Surveys, market-data associations, band files and imports of A's (bands are on for both).
    const asA = bearer(a.users.admin as TestUser);
    const postAsA = async (url: string, json?: unknown) => (await request<{ data: { id: string } }>(url, { method: 'POST', headers: asA, json })).body.data;
    ids.surveyId = (await postAsA('/api/bands/surveys/bls')).id;
    ids.surveyMappingId = (await postAsA('/api/bands/survey-mappings', { provider: 'Tenant A provider', mapping: { jobCode: 'Code', title: 'Title', p50: 'P50' } })).id;
    ids.marketAssociationId = (await postAsA(`/api/bands/jobs/${ids.companyJobId}/associations`, { survey: { surveyId: ids.surveyId, surveyJobCode: '15-1252' } })).id;
    const file = await request<{ data: { id: string } }>('/api/bands/files?kind=bands', { method: 'POST', headers: { ...asA, 'content-type': 'text/csv' }, body: 'Job code,Pay zone,Min,Mid,Max\n' });
    ids.bandFileId = file.body.data.id;
    ids.bandImportId = (await postAsA(`/api/bands/band-sets/${ids.bandSetId}/imports`, { fileId: ids.bandFileId, dryRun: true })).id;
  });

  beforeAll(async () => {
    // An offer of A's to A's candidate, with offer letters on for both.
    const support = await createTestUser(await testDb(), { companyId: a.id, internalAdmin: true });
    await request(`/api/internal/companies/${a.id}/release-flags/offer_letters`, { method: 'PUT', headers: bearer(support), json: { enabled: true } });
    await request(`/api/internal/companies/${b.id}/release-flags/offer_letters`, { method: 'PUT', headers: bearer(bInternal), json: { enabled: true } });
    const offer = await request<{ data: { id: string } }>('/api/offers', {
      method: 'POST',
      headers: bearer(a.users.admin as TestUser),
      json: { candidateId: ids.candidateId, jobFamilyId: 'software_engineering', levelId: 'p3', locationId: 'us_sf_bay_area', startDate: '2030-01-06', expiresOn: '2030-01-01', currency: 'USD', package: { base: 150_000_00 } },
    });
    ids.offerId = offer.body.data.id;
    // A job posting of A's (offer letters on for both), its range stated by hand.
    const posting = await request<{ data: { id: string } }>('/api/postings', {
      method: 'POST',
      headers: bearer(a.users.admin as TestUser),
      json: { companyJobId: ids.companyJobId, locations: [{ locationId: 'us_denver', min: 120_000_00, max: 150_000_00 }] },
    });
    ids.postingId = posting.body.data.id;
  });

  beforeAll(async () => {
    // A total-rewards statement issued to one of A's employees, with total rewards on for both.
    const db = await testDb();
    const support = await createTestUser(db, { companyId: a.id, internalAdmin: true });
    await request(`/api/internal/companies/${a.id}/release-flags/total_rewards`, { method: 'PUT', headers: bearer(support), json: { enabled: true } });
    await request(`/api/internal/companies/${b.id}/release-flags/total_rewards`, { method: 'PUT', headers: bearer(bInternal), json: { enabled: true } });
    const employeeId = await insertEmployee(db, a.id, { firstName: 'Issued', lastName: 'Statement' });
    const issuing = await request<{ data: { id: string } }>('/api/total-rewards/issued-statements', { method: 'POST', headers: bearer(a.users.admin as TestUser), json: { title: 'Tenant A statement', employeeId } });
    expect((await jobEnded(a.users.admin as TestUser, issuing.body.data.id)).status).toBe('succeeded');
    ids.issuedStatementId = ((await db('document_versions').where({ company_id: a.id, subject_id: employeeId }).first('id')) as { id: string }).id;
  });

  beforeAll(async () => {
    // An enterprise sign-in provider of A's (stored directly: registering one reads a live discovery document).
    const db = await testDb();
    const now = new Date().toISOString();
    ids.ssoConnectionId = `sso-${a.id}`;
    await db('sso_connections').insert({ id: ids.ssoConnectionId, company_id: a.id, issuer_url: 'https://login.tenant-a.test', client_id: 'paybench', client_secret_sealed: 'v1:sealed', enabled: true, verified_at: now, version: 1, created_at: now, updated_at: now });
    ids.companyDomainId = `domain-${a.id}`;
    await db('company_domains').insert({ id: ids.companyDomainId, company_id: a.id, domain: `tenant-a-${a.id.slice(-6)}.test`, status: 'pending', token: 'token', created_at: now, updated_at: now });
    // A's request to take part in the market, with a proven domain, for the internal review.
    await db('company_domains').insert({ id: `proven-${a.id}`, company_id: a.id, domain: `proven-a-${a.id.slice(-6)}.test`, status: 'proven', proof: 'dns', token: 'token', created_at: now, updated_at: now });
    await db('market_participant_reviews').insert({ company_id: a.id, status: 'pending', requested_at: now, headcount_offered: 0 });
  });

  beforeAll(async () => {
    // A launched merit cycle of A's (over A's employee) and one of its worksheets, with compensation planning on for both.
    const call: PlanningCall = (path, init) => request(path, { method: init.method, headers: { Authorization: `Bearer ${init.token}`, ...(init.ifMatch ? { 'If-Match': `"${init.ifMatch}"` } : {}) }, json: init.json });
    await switchOnPlanning(call, (await createTestUser(await testDb(), { companyId: a.id, internalAdmin: true })).token, a.id);
    await switchOnPlanning(call, bInternal.token, b.id);
    Object.assign(ids, await meritCycleFixtures(call, (a.users.admin as TestUser).token));
  });

  beforeAll(async () => {
    // A pulse survey of A's, with pulse surveys in both companies' data-lab subscriptions (other features kept).
    const db = await testDb();
    for (const company of [a, b]) await saveDataLabFeatures(db, company.id, { ...(await dataLabFeatures(db, company.id)), pulseSurveys: true }, a.users.admin?.id ?? '');
    const survey = await request<{ data: { id: string } }>('/api/data-lab/pulse-surveys', {
      method: 'POST',
      headers: bearer(a.users.admin as TestUser),
      json: { title: 'Tenant A pulse', questions: ['I understand how my pay is set'], target: { kind: 'everyone', values: [] }, opensOn: '2030-01-01', closesOn: '2030-01-31' },
    });
    ids.pulseSurveyId = survey.body.data.id;
  });

  beforeAll(async () => {
    // A bookmark of A's, with insights in both companies' data-lab subscriptions (other features kept); an insight's key.
    const db = await testDb();
    for (const company of [a, b]) await saveDataLabFeatures(db, company.id, { ...(await dataLabFeatures(db, company.id)), insights: true }, a.users.admin?.id ?? '');
    const bookmark = await request<{ data: { id: string } }>('/api/data-lab/bookmarks', { method: 'POST', headers: bearer(a.users.admin as TestUser), json: { kind: 'teamAnalytics', name: 'Tenant A view', target: '/team/analytics' } });
    ids.bookmarkId = bookmark.body.data.id;
    ids.insightKey = 'stalePay';
  });

  beforeAll(async () => {
    // A joint pay assessment of A's (written as flagging leaves it), with pay equity on for both.
    const db = await testDb();
    const support = await createTestUser(db, { companyId: null, internalAdmin: true });
    for (const company of [a, b]) await request(`/api/internal/companies/${company.id}/release-flags/pay_equity`, { method: 'PUT', headers: bearer(support), json: { enabled: true } });
    const now = new Date().toISOString();
    ids.assessmentId = newId();
    await db('pay_equity_assessments').insert({ id: ids.assessmentId, company_id: a.id, year: 2026, category_id: 'software_engineering|p3|tr_p', category_name: 'Software Engineering · P3', gap_bp: 700, status: 'open', due_date: '2027-06-01', version: 1, created_at: now, updated_at: now });
    // A request for pay information of A's employee.
    const asker = a.users.employee as TestUser;
    await insertEmployee(db, a.id, { firstName: 'Tenant', lastName: 'Asker', userId: asker.id });
    const filed = await request<{ data: { id: string } }>('/api/pay-transparency/me/requests', { method: 'POST', headers: bearer(asker), json: {} });
    ids.requestId = filed.body.data.id;
    // A question about its answer (Art. 7(5)), as asking leaves it.
    ids.clarificationId = newId();
    await db('pay_information_clarifications').insert({ id: ids.clarificationId, company_id: a.id, request_id: ids.requestId, state: 'open', question: 'Is my bonus counted?', asked_on: '2026-12-01', due_on: '2027-02-01', reminder_on: '2027-01-18', version: 1, created_at: now, updated_at: now });
  });

  it('covers every operation that takes an id', () => {
    expect(withIds.length).toBeGreaterThan(5);
    for (const op of withIds) {
      for (const name of op.pathParameters) {
        if (!NOT_IDS.has(name) && !CROSS_COMPANY_BY_DESIGN.has(`${op.operationId}:${name}`)) {
          expect(ids[name], `no company-A fixture for path parameter ${name} of ${op.operationId}`).toBeDefined();
        }
      }
    }
  });

  it.each(withIds.map((op) => [op.operationId, op] as const))('%s with company A ids, called by company B', async (operationId, op) => {
    const crossCompany = op.pathParameters.some((name) => CROSS_COMPANY_BY_DESIGN.has(`${operationId}:${name}`));
    const caller = accessOf.get(operationId) === 'internalAdmin' ? bInternal : (b.users.admin as TestUser);
    // A required query parameter that names another record (e.g. the band set compared with) gets company A's too.
    const reply = await request<ErrorBody>(fillUrl(contract, op, { ...ids, flag: 'bands', since: ids.bandSetId ?? '' }), {
      method: op.method.toUpperCase(),
      headers: { ...bearer(caller), 'If-Match': '"1"' },
      json: sampleBody(contract, op),
    });
    if (crossCompany) {
      // Internal staff may act on any company; everyone else is refused outright.
      expect(reply.status).toBeLessThan(400);
      const outsider = await request<ErrorBody>(fillPath(op, { ...ids, flag: 'bands' }), {
        method: op.method.toUpperCase(),
        headers: bearer(b.users.admin as TestUser),
        json: sampleBody(contract, op),
      });
      expect(outsider.status).toBe(403);
      return;
    }
    expect(reply.status).toBe(404);
    expect(reply.body).toMatchObject({ code: 'not_found', title: 'Not found' });
  });
});
