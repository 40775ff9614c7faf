import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, request } from '../../test/http.js';
import { startTestServer } from '../../test/server.js';
import type { components } from '../contract-types.js';
import { DEMO_SEED } from './releases.js';

type Release = components['schemas']['MarketRelease'];
type Job = components['schemas']['BackgroundJob'];

const QUERY = {
  compensationTypes: ['base'],
  marketFilters: [{ companyStages: ['seed', 'series_a', 'series_b', 'series_c', 'series_d_plus', 'private_established', 'public'], companyOwnershipGroups: ['venture_backed', 'private_equity_backed', 'founder_owned', 'public'], locations: ['840'], industries: ['ind_all'] }],
  jobFamilies: ['bg_engineering'],
  levels: [{ type: 'levelBlend', id: 'lb_p3_m3' }],
};

/** Its own server: publishing and pinning change what every query of that server answers from. */
describe('market data releases', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let staff: TestUser;
  let analyst: TestUser;
  const call = <T>(path: string, init: Parameters<typeof request>[1] = {}) =>
    request<T>(path, { ...init, base: server.url, headers: { ...bearer(staff), ...(init.headers as Record<string, string> | undefined) } });

  beforeAll(async () => {
    server = await startTestServer({}, { demoMarketRecords: 4_000 });
    const db = await testDb(server.env);
    const company = await createTestCompany(db, 'Release Staff Co');
    staff = await createTestUser(db, { companyId: company.id, internalAdmin: true });
    analyst = company.users.analyst as TestUser;
  });
  afterAll(() => server.stop());

  async function finished(jobId: string): Promise<Job> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const reply = await call<{ data: Job }>(`/api/background-jobs/${jobId}`);
      if (['succeeded', 'failed', 'cancelled'].includes(reply.body.data.status)) return reply.body.data;
      if (Date.now() > deadline) throw new Error(`job ${jobId} still ${reply.body.data.status}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('seeds and serves the demo release on an empty database, recording its parameters', async () => {
    const reply = await call<{ data: Release[] }>('/api/internal/market/releases');
    expect(reply.status).toBe(200);
    expect(reply.body.data).toHaveLength(1);
    expect(reply.body.data[0]).toMatchObject({ status: 'published', serving: true, pinned: false, source: { kind: 'demo', seed: DEMO_SEED, records: 4000 }, recordCount: 4000 });
    expect(reply.body.data[0]?.companyCount).toBeGreaterThanOrEqual(10);
    // Published only after its privacy scorecard passed: every gating attack's control recovered its
    // targets, and the protected release none within 5%.
    const scorecard = reply.body.data[0]?.privacyScorecard;
    expect(scorecard?.passed).toBe(true);
    for (const attack of scorecard?.attacks ?? []) {
      expect(attack.controlRecovered, attack.attack).toBe(attack.targets);
      if (attack.gating) expect(attack.recovered, attack.attack).toBe(0);
    }
    expect(scorecard?.attacks.map((a) => a.attack)).toEqual(['differencing', 'tracker', 'releases', 'reconstruction', 'key_search', 'colluders', 'dominance', 'counts', 'count_averaging', 'reimport']);
    expect(scorecard?.utility.figures).toBeGreaterThan(0);
  });

  it("summarises the served release's privacy checks for members: when, each gating attack's targets and recoveries, the utility, nothing more", async () => {
    const served = (await call<{ data: Release[] }>('/api/internal/market/releases')).body.data.find((release) => release.serving) as Release;
    const scorecard = served.privacyScorecard!;
    const reply = await request<{ data: components['schemas']['CompositionPrivacyChecks'] }>('/api/benchmarking/data-composition/privacy-checks', { base: server.url, headers: bearer(analyst) });
    expect(reply.status).toBe(200);
    const gating = scorecard.attacks.filter((attack) => attack.gating);
    expect(gating.map((attack) => attack.attack)).toEqual(['differencing', 'tracker', 'releases', 'reconstruction', 'key_search', 'colluders', 'dominance', 'counts', 'count_averaging', 'reimport']);
    // Three significant figures of what the scorecard stored, by hand: 0.014736 → 0.0147.
    const three = (value: number) => (value === 0 ? 0 : Math.round(value / 10 ** (Math.floor(Math.log10(value)) - 2)) * 10 ** (Math.floor(Math.log10(value)) - 2));
    expect(reply.body.data).toEqual({
      releaseVersion: served.version,
      checks: {
        checkedAt: scorecard.computedAt,
        passed: true,
        attacks: gating.map((attack) => ({ attack: attack.attack, title: attack.title, targets: attack.targets, recovered: 0 })),
        medianRelativeMove: expect.closeTo(three(scorecard.utility.medianRelativeMove), 12),
        p90RelativeMove: expect.closeTo(three(scorecard.utility.p90RelativeMove), 12),
        cellsWithheldShare: expect.closeTo(three(scorecard.utility.cellsWithheldShare), 12),
      },
    });
    // Neither the controls, the closest estimates nor the non-gating attacks reach members.
    expect(JSON.stringify(reply.body)).not.toMatch(/controlRecovered|closest|note/);
  });

  it('is for internal staff only', async () => {
    const reply = await request<ErrorBody>('/api/internal/market/releases', { base: server.url, headers: bearer(analyst) });
    expect(reply.status).toBe(403);
  });

  it('builds a draft in the background, publishes it, serves it, and never changes it again; pinning brings the old one back', async () => {
    const before = await call<{ data: components['schemas']['BenchmarkResult'] }>('/api/benchmarking/market-data', { method: 'POST', headers: bearer(analyst), json: QUERY });
    const first = (await call<{ data: Release[] }>('/api/internal/market/releases')).body.data[0] as Release;
    expect(before.body.data.releaseId).toBe(first.id);

    const started = await call<{ data: Job }>('/api/internal/market/releases', { method: 'POST', json: { seed: 7, records: 3000 } });
    expect(started.status).toBe(202);
    const job = await finished(started.body.data.id);
    expect(job).toMatchObject({ status: 'succeeded', progress: 100 });
    const listed = (await call<{ data: Release[] }>('/api/internal/market/releases')).body.data;
    const draft = listed.find((r) => r.status === 'draft') as Release;
    expect(draft).toMatchObject({ source: { seed: 7, records: 3000 }, recordCount: 3000, serving: false, publishedAt: null });

    const pinDraft = await call<ErrorBody>(`/api/internal/market/releases/${draft.id}/pin`, { method: 'POST' });
    expect(pinDraft.status).toBe(400);

    // A failing scorecard blocks publishing, with the reason.
    expect(draft.privacyScorecard?.passed).toBe(true);
    const db = await testDb(server.env);
    const stored = (await db('market_releases').where({ id: draft.id }).first('privacy_scorecard')) as { privacy_scorecard: string };
    const failing = { ...draft.privacyScorecard, passed: false, reason: 'differencing: 1 targets recovered within 5%' };
    await db('market_releases').where({ id: draft.id }).update({ privacy_scorecard: JSON.stringify(failing) });
    const refused = await call<ErrorBody>(`/api/internal/market/releases/${draft.id}/publish`, { method: 'POST' });
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.body)).toContain('release_privacy_failed');
    expect(JSON.stringify(refused.body)).toContain('differencing: 1 targets recovered within 5%');
    await db('market_releases').where({ id: draft.id }).update({ privacy_scorecard: stored.privacy_scorecard });

    const published = await call<{ data: Release }>(`/api/internal/market/releases/${draft.id}/publish`, { method: 'POST' });
    expect(published.body.data).toMatchObject({ status: 'published', serving: true });
    const after = await call<{ data: components['schemas']['BenchmarkResult'] }>('/api/benchmarking/market-data', { method: 'POST', headers: bearer(analyst), json: QUERY });
    expect(after.body.data.releaseId).toBe(draft.id);

    const again = await call<ErrorBody>(`/api/internal/market/releases/${draft.id}/publish`, { method: 'POST' });
    expect(again.status).toBe(409);

    const pinned = await call<{ data: Release }>(`/api/internal/market/releases/${first.id}/pin`, { method: 'POST' });
    expect(pinned.body.data).toMatchObject({ pinned: true, serving: true });
    const back = await call<{ data: components['schemas']['BenchmarkResult'] }>('/api/benchmarking/market-data', { method: 'POST', headers: bearer(analyst), json: QUERY });
    // Rebuilt from its parameters, the first release answers exactly as it did before.
    expect(back.body.data).toEqual(before.body.data);
  });

  it('answers 404 for an unknown release', async () => {
    const reply = await call<ErrorBody>('/api/internal/market/releases/0190c0de-0000-7000-8000-000000000000/publish', { method: 'POST' });
    expect(reply.status).toBe(404);
  });
});
