import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, makeVerifiedParticipant, testDb } from '../../../test/factories.js';
import { type ErrorBody, request } from '../../../test/http.js';
import { startTestServer } from '../../../test/server.js';
import type { components } from '../../contract-types.js';
import { newId } from '../../db/ids.js';
import { DEMO_COMPANY } from '../../demo/seed.js';
import { jobEnded } from '../test/requests.js';

type Schemas = components['schemas'];
type Job = Schemas['BackgroundJob'];
type Release = Schemas['MarketRelease'];
type Participation = Schemas['MarketParticipation'];
type Quarantine = Schemas['MarketQuarantine'];

const FAKE_NAMES = ['Fake 0', 'Fake 1', 'Fake 2', 'Fake 3', 'Fake 4', 'Fake 5'];

/**
 * The review's fake-participant attack through the real build: six companies of one person, 1,536
 * made-up employees as a ladder of pay in two metros, put in as participants directly (verification
 * bypassed); the demo company's seeded HR data beside them as the real participant. Its own server:
 * builds change the releases every query of a server sees.
 */
describe('plausibility checks when a release is built', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let db: Knex;
  let staff: TestUser;
  let fakes: TestCompany[];
  let growing: TestCompany;
  let realId: string;
  const call = <T>(path: string, user: TestUser, init: Parameters<typeof request>[1] = {}) => request<T>(path, { ...init, base: server.url, headers: bearer(user) });
  const recently = new Date(Date.now() - 90 * 86_400_000).toISOString().slice(0, 10);

  async function employ(companyId: string, people: { location: string; base: number }[]): Promise<void> {
    const now = new Date().toISOString();
    const employees = people.map(({ location }) => ({ id: newId(), company_id: companyId, employee_number: `F-${newId().slice(-12)}`, title: 'Engineer', job_family_id: 'software_engineering', level_id: 'p3', location_id: location, country_code: 'US', currency: 'USD', status: 'active', created_at: now, updated_at: now }));
    await db.batchInsert('employees', employees, 200);
    await db.batchInsert(
      'compensation_records',
      employees.map((e, k) => ({ id: newId(), company_id: companyId, employee_id: e.id, type: 'base_salary', amount: people[k]!.base * 100, currency: 'USD', effective_date: recently, reason: 'hire', source: 'manual', created_at: now })),
      200,
    );
  }

  /**
   * Each fake passes verification (its admin at its own domain, approved by Paybench), as a
   * determined attacker's companies could: the plausibility checks are what is left to stop a ladder.
   */
  const participate = (companyId: string) => makeVerifiedParticipant(db, { base: server.url, companyId, staff });

  async function build(): Promise<{ release: Release; job: Job }> {
    const started = await call<{ data: Job }>('/api/internal/market/releases', staff, { method: 'POST', json: { seed: 11, records: 10_000 } });
    const job = await jobEnded(async () => (await call<{ data: Job }>(`/api/background-jobs/${started.body.data.id}`, staff)).body.data);
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    // Newest first: the draft just built.
    const release = (await call<{ data: Release[] }>('/api/internal/market/releases', staff)).body.data.find((r) => r.status === 'draft');
    if (!release) throw new Error('the build left no draft');
    return { release, job };
  }

  const quarantines = async () => (await call<{ data: Quarantine[] }>('/api/internal/market/quarantines', staff)).body.data;
  const participationOf = async (company: TestCompany) => (await call<{ data: Participation }>('/api/benchmarking/participation', company.users.admin as TestUser)).body.data;

  beforeAll(async () => {
    server = await startTestServer({}, { demoMarketRecords: 4_000 });
    db = await testDb(server.env);
    // Support staff sit in a company of their own that takes no part.
    staff = await createTestUser(db, { companyId: (await createTestCompany(db, 'Support desk')).id, internalAdmin: true });
    fakes = [];
    for (let fake = 0; fake < 6; fake++) {
      const company = await createTestCompany(db, FAKE_NAMES[fake]);
      fakes.push(company);
      // Every sixth rung of a ladder 250 apart, 128 people in each of two metros.
      await employ(
        company.id,
        ['us_sf_bay_area', 'us_new_york'].flatMap((location) => Array.from({ length: 128 }, (_, rung) => ({ location, base: 120_000 + 250 * (6 * rung + fake) }))),
      );
      await participate(company.id);
    }
    // The demo company's seeded people: a real-looking payroll of about 250.
    realId = ((await db('companies').where({ name: DEMO_COMPANY.name }).first('id')) as { id: string }).id;
    await participate(realId);
    // A small company of 30, irregularly paid, that later grows to 100 at once.
    growing = await createTestCompany(db, 'Growing Co');
    await employ(growing.id, Array.from({ length: 30 }, (_, k) => ({ location: 'us_boston', base: 140_000 + ((k * k * 7_919) % 60_000) })));
    await participate(growing.id);
  });
  afterAll(async () => {
    await db.destroy();
    await server.stop();
  });

  it('holds back the six ladders, takes the real payrolls, shows internal admins why, tells the company only that it was held back, and releases a hold into the next build', async () => {
    const real = (await db('employees').where({ company_id: realId, status: 'active' }).count<{ n: number | string }[]>({ n: '*' }))[0]!;
    expect(Number(real.n)).toBeGreaterThan(200);

    const first = await build();
    // Only the demo company and Growing Co went in: what the build took is what they contribute.
    expect(first.release.source.contributedCompanies).toBe(2);
    const stored = await db('market_release_contributions').where({ release_id: first.release.id });
    expect(stored.filter((r: { base: number }) => r.base >= 120_000 && (r.base - 120_000) % 250 === 0).length).toBeLessThan(20);

    const held = await quarantines();
    expect(held.map((q) => q.company.name).sort()).toEqual(FAKE_NAMES);
    for (const q of held) {
      expect(q).toMatchObject({ releaseVersion: first.release.version, outcome: 'quarantined', records: 256, previousRecords: null, decision: null, appliedReleaseVersion: null });
      expect(q.findings.map((f) => f.check)).toEqual(['ladder']);
      // The pay was set 90 days before the build and aged by the same factor, so the step is 1,500 × 1.0085 ± 1.
      expect(q.findings[0]?.message).toMatch(/^256 of 256 records sit in evenly spaced runs of 5 or more; the longest is 128 records 1,51\d apart in Software Engineering, P3 · Career, (San Francisco Bay Area|New York City)$/);
      expect(q.findings[0]?.cell?.label).toMatch(/^Software Engineering, P3 · Career, /);
    }
    // Internal admins only.
    expect((await call('/api/internal/market/quarantines', fakes[0]!.users.admin as TestUser)).status).toBe(403);

    // The company hears its contribution was held back, and nothing of why or of anyone else.
    const told = await participationOf(fakes[0]!);
    expect(told).toMatchObject({ participates: true, status: 'awaiting_data', heldBack: { releaseVersion: first.release.version, inNextRelease: false } });
    expect(JSON.stringify(told)).not.toMatch(/ladder|rung|apart|evenly/i);
    expect((await participationOf(growing)).heldBack).toBeNull();

    // Deciding: a reason is required, an unknown hold is 404; one released, one kept.
    const [releasedHold, keptHold] = [held.find((q) => q.company.id === fakes[0]!.id)!, held.find((q) => q.company.id === fakes[1]!.id)!];
    const blank = await call<ErrorBody>(`/api/internal/market/quarantines/${releasedHold.id}/decision`, staff, { method: 'POST', json: { action: 'release', reason: '   ' } });
    expect(blank.status).toBe(400);
    expect(blank.body.errors).toEqual([{ field: 'body.reason', message: 'must not be blank' }]);
    expect((await call(`/api/internal/market/quarantines/${newId()}/decision`, staff, { method: 'POST', json: { action: 'keep', reason: 'x' } })).status).toBe(404);
    const released = await call<{ data: Quarantine }>(`/api/internal/market/quarantines/${releasedHold.id}/decision`, staff, { method: 'POST', json: { action: 'release', reason: 'Checked the payroll with the company' } });
    expect(released.status).toBe(200);
    expect(released.body.data.decision).toMatchObject({ action: 'release', reason: 'Checked the payroll with the company', decidedBy: staff.email });
    const kept = await call<{ data: Quarantine }>(`/api/internal/market/quarantines/${keptHold.id}/decision`, staff, { method: 'POST', json: { action: 'keep', reason: 'Made-up pay' } });
    expect(kept.body.data.decision?.action).toBe('keep');
    expect((await participationOf(fakes[0]!)).heldBack?.inNextRelease).toBe(true);
    expect((await participationOf(fakes[1]!)).heldBack?.inNextRelease).toBe(false);

    // Growing Co grows from 30 to 100 at once before the next build.
    await employ(growing.id, Array.from({ length: 70 }, (_, k) => ({ location: 'us_austin', base: 120_000 + ((k * k * 6_007) % 50_000) })));

    const second = await build();
    // The released fake went in this once; the others are held again, and so is the jump.
    expect(second.release.source.contributedCompanies).toBe(2);
    const now = await quarantines();
    const ofSecond = now.filter((q) => q.releaseVersion === second.release.version);
    expect(ofSecond.find((q) => q.company.id === fakes[0]!.id)).toMatchObject({ outcome: 'released', findings: [{ check: 'ladder' }] });
    expect(ofSecond.filter((q) => q.outcome === 'quarantined').map((q) => q.company.name).sort()).toEqual([...FAKE_NAMES.slice(1), 'Growing Co'].sort());
    expect(ofSecond.find((q) => q.company.id === growing.id)).toMatchObject({ records: 100, previousRecords: 30, findings: [{ check: 'headcount_jump', message: '100 records against 30 in its previous contribution' }] });
    expect(now.find((q) => q.id === releasedHold.id)?.appliedReleaseVersion).toBe(second.release.version);
    expect((await participationOf(fakes[0]!)).heldBack).toBeNull();
    expect((await participationOf(growing)).heldBack).toMatchObject({ releaseVersion: second.release.version });

    // A hold a later build screened again is not decided any more, nor a release a build applied.
    const superseded = await call<ErrorBody>(`/api/internal/market/quarantines/${keptHold.id}/decision`, staff, { method: 'POST', json: { action: 'release', reason: 'late' } });
    expect([superseded.status, superseded.body.code]).toEqual([409, 'quarantine_superseded']);
    const applied = await call<ErrorBody>(`/api/internal/market/quarantines/${releasedHold.id}/decision`, staff, { method: 'POST', json: { action: 'keep', reason: 'late' } });
    expect([applied.status, applied.body.code]).toEqual([409, 'quarantine_applied']);
  }, 120_000);
});
