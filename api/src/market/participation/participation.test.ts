import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../../test/factories.js';
import { type ErrorBody, request } from '../../../test/http.js';
import { startTestServer } from '../../../test/server.js';
import type { components } from '../../contract-types.js';
import { newId } from '../../db/ids.js';
import { COMPANY_STAGES, OWNERSHIP_GROUPS } from '../../reference/catalog/index.js';
import { jobEnded } from '../test/requests.js';

type Schemas = components['schemas'];
type Job = Schemas['BackgroundJob'];
type Release = Schemas['MarketRelease'];
type Participation = Schemas['MarketParticipation'];

/** Its own server: building and publishing releases changes what every query of that server answers. */
describe('customers contributing to the market', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let db: Knex;
  let staff: TestUser;
  let company: TestCompany;
  let admin: TestUser;
  const call = <T>(path: string, user: TestUser, init: Parameters<typeof request>[1] = {}) => request<T>(path, { ...init, base: server.url, headers: { ...bearer(user), ...(init.headers as Record<string, string> | undefined) } });

  /** Half a year ago: pay set then is current for a release built today (pay over 24 months old is left out). */
  const recently = new Date(Date.now() - 182 * 86_400_000).toISOString().slice(0, 10);

  /** Employees with a base salary, as an HR import leaves them. */
  async function hire(count: number, spec: { family: string; level: string; location: string; base: number; currency?: string }): Promise<void> {
    const now = new Date().toISOString();
    for (let i = 0; i < count; i++) {
      const id = newId();
      await db('employees').insert({ id, company_id: company.id, employee_number: `C-${id.slice(-10)}`, title: 'Contributor', job_family_id: spec.family, level_id: spec.level, location_id: spec.location, country_code: 'US', currency: spec.currency ?? 'USD', status: 'active', created_at: now, updated_at: now });
      await db('compensation_records').insert({ id: newId(), company_id: company.id, employee_id: id, type: 'base_salary', amount: (spec.base + i * 1000 + ((379 * i * i) % 1000)) * 100, currency: spec.currency ?? 'USD', effective_date: recently, reason: 'hire', source: 'manual', created_at: now });
    }
  }

  async function build(seed: number, records: number): Promise<Release> {
    const started = await call<{ data: Job }>('/api/internal/market/releases', staff, { method: 'POST', json: { seed, records } });
    const job = await jobEnded(async () => (await call<{ data: Job }>(`/api/background-jobs/${started.body.data.id}`, staff)).body.data);
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    const draft = (await call<{ data: Release[] }>('/api/internal/market/releases', staff)).body.data.find((r) => r.status === 'draft');
    if (!draft) throw new Error('the build left no draft');
    return draft;
  }

  async function buildAndPublish(seed: number, records: number): Promise<Release> {
    const { id } = await build(seed, records);
    const published = await call<{ data: Release }>(`/api/internal/market/releases/${id}/publish`, staff, { method: 'POST' });
    expect(published.body.data.serving).toBe(true);
    return published.body.data;
  }

  const everywhere = { companyStages: COMPANY_STAGES.map((s) => s.id), companyOwnershipGroups: OWNERSHIP_GROUPS.map((o) => o.id), industries: ['ind_all'] };
  const cell = async (family: string, level: string, location: string) =>
    (
      await call<{ data: Schemas['BenchmarkResult'] }>('/api/benchmarking/market-data', admin, {
        method: 'POST',
        json: { compensationTypes: ['base'], marketFilters: [{ ...everywhere, locations: [location] }], jobFamilies: [family], levels: [{ type: 'level', id: level }] },
      })
    ).body.data.cells[0]!;

  beforeAll(async () => {
    server = await startTestServer({}, { demoMarketRecords: 4_000 });
    db = await testDb(server.env);
    company = await createTestCompany(db, 'Contributing Co');
    admin = company.users.admin as TestUser;
    staff = await createTestUser(db, { companyId: company.id, internalAdmin: true });
  });
  afterAll(async () => {
    await db.destroy();
    await server.stop();
  });

  it('is a benchmarking setting: off by default, needing a profile to opt in, editable with benchmarking edit, never for candidates', async () => {
    const initial = await call<{ data: Participation }>('/api/benchmarking/participation', company.users.analyst as TestUser);
    expect(initial.body.data).toEqual({
      participates: false,
      status: 'not_participating',
      lastSubmittedAt: null,
      profile: null,
      placeableEmployees: 0,
      contributedEmployees: 0,
      excludedEmployees: [],
      heldBack: null,
      verification: { status: 'not_requested', provenDomains: [], note: null },
    });
    const bare = await call<ErrorBody>('/api/benchmarking/participation', admin, { method: 'PUT', json: { participates: true } });
    expect(bare.status).toBe(400);
    expect(bare.body.errors).toEqual([
      { field: 'body.companyStage', message: 'Please select the company stage' },
      { field: 'body.ownershipGroup', message: 'Please select the company ownership group' },
      { field: 'body.industry', message: 'Please select the industry' },
    ]);
    const misfit = await call<ErrorBody>('/api/benchmarking/participation', admin, { method: 'PUT', json: { participates: true, companyStage: 'series_b', ownershipGroup: 'public', industry: 'ind_technology' } });
    expect(misfit.body.errors).toEqual([
      { field: 'body.industry', message: "Unknown industry 'ind_technology'; choose a sub-industry" },
      { field: 'body.ownershipGroup', message: 'Public companies are not at the Series B stage' },
    ]);
    expect((await call('/api/benchmarking/participation', company.users.analyst as TestUser, { method: 'PUT', json: { participates: false } })).status).toBe(403);
    const candidate = await createTestUser(db, { companyId: company.id, roleIds: [company.roleIds.get('admin') ?? ''], candidate: true });
    expect((await call('/api/benchmarking/participation', candidate)).status).toBe(403);
  });

  it('refuses 1 to 999 generated records, and says why a release of participants alone cannot be built when nobody has opted in', async () => {
    const few = await call<ErrorBody>('/api/internal/market/releases', staff, { method: 'POST', json: { seed: 11, records: 999 } });
    expect(few.status).toBe(400);
    expect(few.body.errors).toEqual([{ field: 'body.records', message: 'must be 0 or at least 1000' }]);
    const started = await call<{ data: Job }>('/api/internal/market/releases', staff, { method: 'POST', json: { seed: 11, records: 0 } });
    expect(started.status).toBe(202);
    const job = await jobEnded(async () => (await call<{ data: Job }>(`/api/background-jobs/${started.body.data.id}`, staff)).body.data);
    expect(job.status).toBe('failed');
    expect(job.message).toBe('A release of participants alone needs participants’ records, and no opted-in company has any the market can place');
    expect((await call<{ data: Release[] }>('/api/internal/market/releases', staff)).body.data.filter((r) => r.status === 'draft')).toEqual([]);
  });

  it('adds the opted-in company’s current employees to the next release, anonymised, under the same privacy rule', async () => {
    // Without the company, as a baseline: the same generator parameters.
    const before = await buildAndPublish(11, 20000);
    expect(before.source).toMatchObject({ kind: 'demo', contributedCompanies: 0, contributedRecords: 0 });
    const baseline = await cell('software_engineering', 'p3', '840');
    expect(baseline.status).toBe('published');
    expect(baseline.syntheticShare).toBe(1);

    await hire(12, { family: 'software_engineering', level: 'p3', location: 'us_sf_bay_area', base: 150_000 });
    // In pounds, at a London desk: converted to the metro's currency as they are.
    await hire(3, { family: 'software_engineering', level: 'p3', location: 'gb_london', base: 70_000, currency: 'GBP' });
    // A role and place only this company has: the privacy rule withholds it.
    await hire(12, { family: 'technical_writing', level: 'p6', location: 'us_kansas_city', base: 130_000 });
    const joined = await call<{ data: Participation }>('/api/benchmarking/participation', admin, { method: 'PUT', json: { participates: true, companyStage: 'series_b', ownershipGroup: 'venture_backed', industry: 'ind_tech_saas' } });
    expect(joined.body.data).toMatchObject({ participates: true, status: 'awaiting_data', profile: { companyStage: 'series_b', ownershipGroup: 'venture_backed', industry: 'ind_tech_saas' }, placeableEmployees: 27, contributedEmployees: 27 });
    expect(joined.body.data.verification).toEqual({ status: 'needs_domain', provenDomains: [], note: null });

    // Opted in but not a verified participant: the build leaves its records out.
    const unverified = await build(11, 20000);
    expect(unverified.source).toMatchObject({ contributedCompanies: 0, contributedRecords: 0 });
    type Request = Schemas['MarketParticipantRequest'];
    const queue = async () => (await call<{ data: Request[] }>('/api/internal/market/participants', staff)).body.data.find((r) => r.companyId === company.id);
    expect(await queue()).toMatchObject({ companyName: 'Contributing Co', status: 'pending', provenDomains: [], headcountOffered: 27, requestedBy: admin.email, decidedBy: null, seeded: false });
    expect((await call('/api/internal/market/participants', admin)).status).toBe(403);
    const early = await call<ErrorBody>(`/api/internal/market/participants/${company.id}/decision`, staff, { method: 'POST', json: { decision: 'approve' } });
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('domain_unproven');
    // The admin proves the company's domain (a verified admin with an address at it), and Paybench approves.
    await db('users').where({ id: admin.id }).update({ email: 'ada@contributing.test', email_verified: true });
    const domain = await call<{ data: Schemas['CompanyDomain'] }>('/api/company/domains', admin, { method: 'POST', json: { domain: 'contributing.test' } });
    expect(domain.body.data).toMatchObject({ status: 'proven', proof: 'admin_email' });
    expect((await call<{ data: Participation }>('/api/benchmarking/participation', admin)).body.data.verification).toEqual({ status: 'awaiting_approval', provenDomains: ['contributing.test'], note: null });
    const approved = await call<{ data: Request }>(`/api/internal/market/participants/${company.id}/decision`, staff, { method: 'POST', json: { decision: 'approve', note: 'Known customer.' } });
    expect(approved.body.data).toMatchObject({ status: 'approved', provenDomains: ['contributing.test'], decidedBy: staff.email, note: 'Known customer.' });

    const after = await buildAndPublish(11, 20000);
    // The build's report names the company as new.
    const report = (await call<{ data: Schemas['ReleaseParticipants'] }>(`/api/internal/market/releases/${after.id}/participants`, staff)).body.data;
    expect(report).toEqual({ releaseId: after.id, previousReleaseId: unverified.id, participants: [{ companyId: company.id, companyName: 'Contributing Co' }], added: [{ companyId: company.id, companyName: 'Contributing Co' }], removed: [] });
    expect(after).toMatchObject({ source: { kind: 'mixed', seed: 11, records: 20000, contributedCompanies: 1, contributedRecords: 27 }, recordCount: 20027, companyCount: before.companyCount + 1 });
    const withUs = await cell('software_engineering', 'p3', '840');
    // A published head count is the records' number plus each record's count weight (±1.25 to 3,
    // docs/market-privacy.md), rounded to a multiple of five by the cell key: our 12 move it by 12 ± 36,
    // and each side's rounding by under 5.
    expect(withUs.sample.employees! % 5).toBe(0);
    expect(Math.abs(withUs.sample.employees! - (baseline.sample.employees! + 12))).toBeLessThan(12 * 3 + 2 * 5);
    // The baseline's generated records and our 12: the share of the cell that is demo data, to two
    // places. The baseline's published count n is its records' number moved by their weights (at most 3
    // each, random signs) and the rounding: within 12·√n + 5 of it but for one key in a thousand
    // (Hoeffding's bound).
    const generated = baseline.sample.employees!;
    const off = 12 * Math.sqrt(generated) + 5;
    const share = (records: number) => records / (records + 12);
    expect(withUs.syntheticShare).toBeGreaterThanOrEqual(share(generated - off) - 0.005);
    expect(withUs.syntheticShare).toBeLessThanOrEqual(Math.min(0.99, share(generated + off) + 0.005));
    // Company counts carry no weights: one more company, each side rounded to fives.
    expect(withUs.sample.companies! % 5).toBe(0);
    expect(Math.abs(withUs.sample.companies! - (baseline.sample.companies! + 1))).toBeLessThan(2 * 5);
    const alone = await cell('technical_writing', 'p6', 'us_kansas_city');
    // Our records alone: withheld, and nothing in the answer says it is one company with a dozen people.
    const below = { id: 'below_threshold', label: 'Below the threshold', min: 0, max: null };
    expect(alone).toMatchObject({
      status: 'insufficient_data',
      insufficientReason: 'Fewer than 5 companies or 10 employees, or one company above 25%',
      percentiles: null,
      sample: { companies: null, employees: null, companyBucket: below, employeeBucket: below },
    });

    const status = await call<{ data: Schemas['DataSubmissionStatus'] }>('/api/company/data-submission-status', admin);
    expect(status.body.data).toMatchObject({ participates: true, status: 'submitted' });
    // What the release keeps names neither the company nor anyone in it.
    const contributors = await db('market_release_contributors').where({ release_id: after.id });
    expect(contributors).toHaveLength(1);
    const stored = JSON.stringify([contributors, await db('market_release_contributions').where({ release_id: after.id })]);
    expect(stored).not.toContain(company.id);
    expect(stored).not.toContain('Contributor');
    expect(stored).not.toContain('C-');
    const london = await db('market_release_contributions').where({ release_id: after.id, location_id: 'gb_london' });
    // Set 182 days before the build, and aged to it at 3.5% a year: × 1.035^(182 / 365.25) = 1.0172896.
    expect(london.map((r: { base: number }) => r.base).sort()).toEqual([71_210, 72_613, 73_770]);
  });

  it('builds a release of participants alone: nothing in it is generated, and one company’s cell is withheld', async () => {
    const alone = await buildAndPublish(11, 0);
    expect(alone).toMatchObject({ source: { kind: 'participants', records: 0, contributedCompanies: 1, contributedRecords: 27 }, recordCount: 27, companyCount: 1 });
    expect(await cell('software_engineering', 'p3', '840')).toMatchObject({ status: 'insufficient_data', syntheticShare: null, percentiles: null });
    // Serve the mixed release again for what follows.
    const mixed = (await call<{ data: Release[] }>('/api/internal/market/releases', staff)).body.data.find((r) => r.source.kind === 'mixed');
    expect((await call(`/api/internal/market/releases/${mixed?.id}/pin`, staff, { method: 'POST' })).status).toBe(200);
  });

  it('keeps a published release as it was built, whatever the company changes or decides later', async () => {
    const served = (await call<{ data: Release[] }>('/api/internal/market/releases', staff)).body.data.find((r) => r.serving) as Release;
    const answer = await cell('software_engineering', 'p3', 'us_sf_bay_area');
    await db('compensation_records').where({ company_id: company.id }).update({ amount: 1 });
    const left = await call<{ data: Participation }>('/api/benchmarking/participation', admin, { method: 'PUT', json: { participates: false } });
    expect(left.body.data).toMatchObject({ participates: false, status: 'not_participating', profile: { companyStage: 'series_b' } });
    // Serving another release and coming back rebuilds this one from what it stored.
    const first = (await call<{ data: Release[] }>('/api/internal/market/releases', staff)).body.data.at(-1) as Release;
    await call(`/api/internal/market/releases/${first.id}/pin`, staff, { method: 'POST' });
    await call(`/api/internal/market/releases/${served.id}/pin`, staff, { method: 'POST' });
    expect(await cell('software_engineering', 'p3', 'us_sf_bay_area')).toEqual(answer);
    // The next build leaves the company out.
    const next = await build(11, 20000);
    expect(next.source).toMatchObject({ contributedCompanies: 0, contributedRecords: 0 });
    const report = (await call<{ data: Schemas['ReleaseParticipants'] }>(`/api/internal/market/releases/${next.id}/participants`, staff)).body.data;
    expect(report).toMatchObject({ participants: [], added: [], removed: [{ companyId: company.id, companyName: 'Contributing Co' }] });
  });

  it('counts every employee a release cannot place, by why, and shows the company', async () => {
    const before = (await call<{ data: Participation }>('/api/benchmarking/participation', admin)).body.data;
    const counted = (data: Participation) => new Map(data.excludedEmployees.map((entry) => [entry.reason, entry.employees]));
    const now = new Date().toISOString();
    const add = async (
      count: number,
      employee: { family?: string | null; level?: string | null; location?: string | null; country?: string | null; type?: string; pay?: { amount: number; currency: string; date?: string } | null },
    ) => {
      for (let i = 0; i < count; i++) {
        const id = newId();
        const currency = employee.pay?.currency ?? 'USD';
        await db('employees').insert({ id, company_id: company.id, employee_number: `X-${id.slice(-10)}`, title: 'Unplaced', job_family_id: employee.family === undefined ? 'software_engineering' : employee.family, level_id: employee.level === undefined ? 'p3' : employee.level, location_id: employee.location === undefined ? 'us_sf_bay_area' : employee.location, country_code: employee.country === undefined ? 'US' : employee.country, currency, employment_type: employee.type ?? 'full_time', status: 'active', created_at: now, updated_at: now });
        if (employee.pay !== null) await db('compensation_records').insert({ id: newId(), company_id: company.id, employee_id: id, type: 'base_salary', amount: employee.pay?.amount ?? 10_000_000, currency, effective_date: employee.pay?.date ?? recently, reason: 'hire', source: 'manual', created_at: now });
      }
    };
    await add(3, { family: null });
    await add(1, { level: 'not_a_level' });
    await add(2, { location: null, country: null }); // nowhere the catalog knows
    await add(1, { location: null, country: 'XK' }); // Kosovo: no ISO 3166-1 code yet
    // Placed, not dropped: in the UK outside its metros, and in Madrid (Spain has no metro in the catalog).
    await add(1, { location: '826', country: 'GB' });
    await add(1, { location: null, country: 'ES', pay: { amount: 6_000_000, currency: 'EUR' } });
    // In Lagos, paid in dollars: the naira has no reference rate, but dollars need none; kept at Nigeria in dollars.
    await add(1, { location: null, country: 'NG' });
    await add(2, { pay: null });
    await add(1, { pay: { amount: 0, currency: 'USD' } });
    await add(1, { pay: { amount: 90_000_000, currency: 'ARS' } }); // no ECB reference rate
    await add(2, { type: 'contractor' });
    await add(1, { type: 'intern' });
    await add(2, { type: 'part_time' });
    await add(1, { pay: { amount: 10_000_000, currency: 'USD', date: '2020-06-01' } }); // set years before the build
    const after = (await call<{ data: Participation }>('/api/benchmarking/participation', admin)).body.data;
    // The ones in Spain, the UK and Nigeria, and the two contractors (kept apart, read only on request).
    expect(after.contributedEmployees).toBe(before.contributedEmployees + 5);
    expect(after.placeableEmployees).toBe(before.placeableEmployees + 15);
    // Each reason counts exactly the employees added for it (on top of any counted before).
    const added = new Map([...counted(after)].map(([reason, employees]) => [reason, employees - (counted(before).get(reason) ?? 0)]));
    expect(Object.fromEntries(added)).toEqual({ no_base_salary: 3, no_job_family_or_level: 4, no_location: 3, no_exchange_rate: 1, intern: 1, part_time: 2, stale_pay: 1 });
    expect(after.excludedEmployees.find((entry) => entry.reason === 'intern')?.description).toBe('An intern (the market is the pay of employees, and of contractors on request)');
    expect(after.excludedEmployees.find((entry) => entry.reason === 'stale_pay')?.description).toBe('Base salary last set more than 24 months before the build');
    expect(after.excludedEmployees.find((entry) => entry.reason === 'no_location')?.description).toBe('No location or country from the market catalog');
    expect(after.excludedEmployees.find((entry) => entry.reason === 'no_exchange_rate')?.description).toBe('Pay in a currency without a reference rate');
    expect(after.excludedEmployees.some((entry) => (entry.reason as string) === 'country_level_location')).toBe(false);
    // Most first.
    const sizes = after.excludedEmployees.map((entry) => entry.employees);
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
  });

  it('counts a company as having no equity programme only when it says so, not when its grants were never imported', async () => {
    // The contributing company's stage; it has no grants imported.
    const slice = { companyStages: ['series_b'] };
    const share = async () => (await call<{ data: Schemas['EquityPractices'] }>('/api/benchmarking/equity-practices', admin, { method: 'POST', json: slice })).body.data;
    const profile = { participates: true, companyStage: 'series_b', ownershipGroup: 'venture_backed', industry: 'ind_tech_saas' };
    // An earlier test set every salary to a cent (placed nowhere), pinned a release and left a draft:
    // give the people pay again, publish that draft, and serve each new build by pinning it.
    // Irregular amounts: one salary for everyone is what the plausibility checks hold back as duplicated.
    const salaries = (await db('compensation_records').where({ company_id: company.id, type: 'base_salary' }).orderBy('id').select('id')) as { id: string }[];
    for (const [k, { id }] of salaries.entries()) await db('compensation_records').where({ id }).update({ amount: 12_000_000 + ((7_919 * k * k) % 1_000_000) });
    for (const draft of (await call<{ data: Release[] }>('/api/internal/market/releases', staff)).body.data.filter((r) => r.status === 'draft')) {
      await call(`/api/internal/market/releases/${draft.id}/publish`, staff, { method: 'POST' });
    }
    const serveNewBuild = async () => {
      const { id, source } = await build(11, 20000);
      expect(source.contributedCompanies).toBe(1);
      await call(`/api/internal/market/releases/${id}/publish`, staff, { method: 'POST' });
      expect((await call<{ data: Release }>(`/api/internal/market/releases/${id}/pin`, staff, { method: 'POST' })).status).toBe(200);
    };

    // Said nothing: neither side of the share.
    await call('/api/benchmarking/participation', admin, { method: 'PUT', json: { ...profile, equityProgramme: null } });
    await serveNewBuild();
    const unsaid = await share();
    expect(unsaid.status).toBe('published');
    // The share is programmes ÷ companies known either way: recover both counts from it and the sample.
    const programmes = unsaid.sample.companies ?? 0;
    const known = Math.round(programmes / (unsaid.equityProgrammeShare ?? 1));

    // Says it has none: one more company known, none more with a programme.
    const said = await call<{ data: Participation }>('/api/benchmarking/participation', admin, { method: 'PUT', json: { ...profile, equityProgramme: 'no' } });
    expect(said.body.data.profile?.equityProgramme).toBe('no');
    await serveNewBuild();
    expect((await share()).equityProgrammeShare).toBeCloseTo(programmes / (known + 1), 4);

    // Says it has one (grants not imported yet): known, and counted as a programme; its practice stays unknown.
    await call('/api/benchmarking/participation', admin, { method: 'PUT', json: { ...profile, equityProgramme: 'yes' } });
    await serveNewBuild();
    const yes = await share();
    expect(yes.equityProgrammeShare).toBeCloseTo((programmes + 1) / (known + 1), 4);
    expect(yes.sample.companies).toBe(programmes);

    // Unsaying it puts it back where it was.
    const unsaidAgain = await call<{ data: Participation }>('/api/benchmarking/participation', admin, { method: 'PUT', json: { ...profile, equityProgramme: null } });
    expect(unsaidAgain.body.data.profile?.equityProgramme).toBeNull();
  });

  it('contributes the employee in Madrid at Spain, and answers for Spain without saying who', async () => {
    // Taking part again: the employees added above go into the next release, the one in Madrid (country ES, no metro) at Spain.
    await call('/api/benchmarking/participation', admin, { method: 'PUT', json: { participates: true, companyStage: 'series_b', ownershipGroup: 'venture_backed', industry: 'ind_tech_saas' } });
    const { id, source } = await build(11, 20000);
    expect(source.contributedCompanies).toBe(1);
    await call(`/api/internal/market/releases/${id}/publish`, staff, { method: 'POST' });
    expect((await call(`/api/internal/market/releases/${id}/pin`, staff, { method: 'POST' })).status).toBe(200);
    const stored = await db('market_release_contributions').where({ release_id: id });
    expect(stored.filter((r: { location_id: string }) => r.location_id === '724')).toHaveLength(1);
    expect(stored.filter((r: { location_id: string }) => r.location_id === '826')).toHaveLength(1);
    // Paid in dollars in Nigeria, whose naira has no reference rate: kept, in dollars, at Nigeria.
    const nigeria = stored.filter((r: { location_id: string }) => r.location_id === '566') as { currency: string | null; base: number }[];
    expect(nigeria.map((r) => r.currency)).toEqual(['USD']);
    expect(stored.filter((r: { location_id: string; currency: string | null }) => r.location_id === '724')[0]?.currency).toBeNull();
    expect(stored.filter((r: { employment_type: string }) => r.employment_type === 'contractor')).toHaveLength(2);

    // The two contractors (San Francisco, software engineering P3) count only where a filter asks for them.
    const unitedStates = async (employmentTypes?: string[]) =>
      (
        await call<{ data: Schemas['BenchmarkResult'] }>('/api/benchmarking/market-data', admin, {
          method: 'POST',
          json: { compensationTypes: ['base'], marketFilters: [{ ...everywhere, locations: ['840'], ...(employmentTypes ? { employmentTypes } : {}) }], jobFamilies: ['software_engineering'], levels: [{ type: 'level', id: 'p3' }] },
        })
      ).body.data.cells[0]!;
    const employeesOnly = await unitedStates();
    expect((await unitedStates(['employee'])).sample).toEqual(employeesOnly.sample);
    expect(employeesOnly.status).toBe('published');
    const withContractors = await unitedStates(['employee', 'contractor']);
    expect(withContractors.status).toBe('published');
    // Two more records with their count weights (±1.25 to 3 each), each side rounded to fives.
    expect(Math.abs(withContractors.sample.employees! - (employeesOnly.sample.employees! + 2))).toBeLessThan(2 * 3 + 2 * 5);
    // Two contractors of one company alone fail the rule: nothing is said of them.
    expect(await unitedStates(['contractor'])).toMatchObject({ status: 'insufficient_data', percentiles: null, sample: { employees: null, companies: null } });
    const unknownType = await call<ErrorBody>('/api/benchmarking/market-data', admin, {
      method: 'POST',
      json: { compensationTypes: ['base'], marketFilters: [{ ...everywhere, locations: ['840'], employmentTypes: ['intern'] }], jobFamilies: ['software_engineering'], levels: [{ type: 'level', id: 'p3' }] },
    });
    expect(unknownType.status).toBe(400);

    // One person in Spain: the market takes the Spain location and withholds the cell, saying nothing of its size.
    const below = { id: 'below_threshold', label: 'Below the threshold', min: 0, max: null };
    expect(await cell('software_engineering', 'p3', '724')).toMatchObject({
      status: 'insufficient_data',
      label: 'Insufficient data',
      insufficientReason: 'Fewer than 5 companies or 10 employees, or one company above 25%',
      percentiles: null,
      currency: 'EUR',
      sample: { companies: null, employees: null, companyBucket: below, employeeBucket: below },
    });
    // Location insights and data composition name Spain and withhold it.
    const insights = await call<{ data: Schemas['LocationInsights'] }>('/api/benchmarking/location-insights', admin, {
      method: 'POST',
      json: { jobFamilies: ['software_engineering'], levels: [{ type: 'level', id: 'p3' }], locations: ['724', '356'], referenceLocationId: '840', compensationType: 'base' },
    });
    expect(insights.status).toBe(200);
    expect(insights.body.data.rows[0]?.locations.map((l) => [l.locationId, l.locationName, l.status])).toEqual([
      ['724', 'Spain', 'insufficient_data'],
      ['356', 'India', 'insufficient_data'],
    ]);
    // Nigeria is in the release, priced in dollars (the currency its records are kept in), and withheld.
    expect(await cell('software_engineering', 'p3', '566')).toMatchObject({ status: 'insufficient_data', currency: 'USD', percentiles: null });
    const composition = (await call<{ data: Schemas['LocationComposition'] }>('/api/benchmarking/data-composition/locations', admin)).body.data.locations;
    expect(composition.find((l) => l.id === '724')).toMatchObject({ name: 'Spain', belowThreshold: true, companies: null, employees: null });

    // A place the catalog does not know is still refused.
    const unknown = await call<ErrorBody>('/api/benchmarking/market-data', admin, {
      method: 'POST',
      json: { compensationTypes: ['base'], marketFilters: [{ ...everywhere, locations: ['XK'] }], jobFamilies: ['software_engineering'], levels: [{ type: 'level', id: 'p3' }] },
    });
    expect(unknown.status).toBe(400);
  });

  it('builds on a worker thread: the API answers while a large release is built', async () => {
    const started = await call<{ data: Job }>('/api/internal/market/releases', staff, { method: 'POST', json: { seed: 12, records: 400_000 } });
    const seen: number[] = [];
    const job = await jobEnded(async () => {
      const health = await request<{ data: { status: string } }>('/api/health', { base: server.url });
      expect(health.status).toBe(200);
      const reply = (await call<{ data: Job }>(`/api/background-jobs/${started.body.data.id}`, staff)).body.data;
      if (reply.status === 'running') seen.push(reply.progress);
      return reply;
    }, 180_000);
    expect(job.status).toBe('succeeded');
    // Progress written mid-build reached the API: it was not blocked until the end.
    expect(seen.some((p) => p > 5 && p < 90)).toBe(true);
  }, 240_000);
});
