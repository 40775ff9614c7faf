import { parse } from 'csv-parse/sync';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, baseUrl, request } from '../../test/http.js';
import { TestSockets } from '../../test/sockets.js';
import { pdfText } from '../documents/test/pdfText.js';
import { jobEnded, until } from '../../test/waiting.js';
import type { components } from '../contract-types.js';
import { insertEmployee, insertPay } from '../team/test/fixtures.js';

type Schemas = components['schemas'];
type Data<T> = { data: T };
type Offer = Schemas['Offer'];
type Letter = Schemas['OfferLetter'];

// Hand-checked figures. The live band of Software Engineering P3 in the company's one (catch-all)
// zone is set to $100,000 / $120,000 / $140,000.
// - A base of $150,000: compa-ratio 150 ÷ 120 = 1.25; range penetration (150 − 100) ÷ (140 − 100) = 1.25; above.
// - A base of $130,000: compa-ratio 130 ÷ 120 = 1.083333… → 1.0833; penetration 30 ÷ 40 = 0.75; inside.
// - Peers at SE P3: $100,000, $120,000 and $160,000 (and one paid €90,000, left out of the figures):
//   4 peers, 3 compared, min $100,000, median $120,000, max $160,000.
// - Share price $5.00, exercise price $1.00: a grant of $20,000 is 20,000 ÷ 5 = 4,000 options at a $1.00 strike.
const USD = (dollars: number) => ({ amount: dollars * 100, currency: 'USD' });
const START = '2030-02-03';
const EXPIRES = '2030-01-15';

describe('offers and offer letters', () => {
  let db: Knex;
  let company: TestCompany;
  let other: TestCompany;
  let admin: TestUser;
  let planner: TestUser;
  let analyst: TestUser;
  let manager: TestUser;
  let employee: TestUser;
  let seP3JobId: string;
  const candidates = { ada: '', grace: '', formula: '' };
  const sockets = new TestSockets();

  const call = <T>(user: TestUser | null, url: string, init: { method?: string; json?: unknown; ifMatch?: number } = {}) =>
    request<T & ErrorBody>(url, {
      method: init.method ?? 'GET',
      headers: { ...(user ? bearer(user) : {}), ...(init.ifMatch !== undefined ? { 'If-Match': `"${init.ifMatch}"` } : {}) },
      ...(init.json !== undefined ? { json: init.json } : {}),
    });

  const switchOn = async (companyId: string, flags: string[]) => {
    const support = await createTestUser(db, { companyId, internalAdmin: true });
    for (const flag of flags) expect((await call(support, `/api/internal/companies/${companyId}/release-flags/${flag}`, { method: 'PUT', json: { enabled: true } })).status).toBe(200);
  };

  const offerInput = (candidateId: string, base: number, extra: Record<string, unknown> = {}) => ({
    candidateId,
    jobFamilyId: 'software_engineering',
    levelId: 'p3',
    locationId: 'us_sf_bay_area',
    startDate: START,
    expiresOn: EXPIRES,
    currency: 'USD',
    package: { base: base * 100, bonusTargetPercent: 10 },
    welcomeMessage: 'We would love you to join us.',
    benefitsSummary: 'Health, dental and 25 days of holiday.',
    ...extra,
  });

  const create = async (input: Record<string, unknown>, user = planner): Promise<Offer> => {
    const reply = await call<Data<Offer>>(user, '/api/offers', { method: 'POST', json: input });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    return reply.body.data;
  };

  const act = async (user: TestUser, offer: { id: string; version: number }, action: string, json: unknown = {}) =>
    call<Data<Offer> & { link?: Schemas['OfferSent']['link'] }>(user, `/api/offers/${offer.id}/${action}`, { method: 'POST', ifMatch: offer.version, json });

  const get = async (id: string, user = planner): Promise<Offer> => {
    const reply = await call<Data<Offer>>(user, `/api/offers/${id}`);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return reply.body.data;
  };

  /** An in-range offer taken to sent; its link's token. */
  const sentOffer = async (candidateId: string, base = 130_000, extra: Record<string, unknown> = {}): Promise<{ offer: Offer; token: string }> => {
    const draft = await create(offerInput(candidateId, base, extra));
    const approved = await act(planner, draft, 'submit');
    expect(approved.body.data.state).toBe('approved');
    const sent = await act(planner, approved.body.data, 'send');
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    return { offer: sent.body.data, token: sent.body.link?.token ?? '' };
  };

  const letter = (token: string) => call<Data<Letter>>(null, `/api/offer-letters/${token}`);

  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'Offers Co');
    other = await createTestCompany(db, 'Other Offers Co');
    const user = (key: string): TestUser => {
      const found = company.users[key];
      if (!found) throw new Error(`no ${key} in the test company`);
      return found;
    };
    [admin, planner, analyst, manager, employee] = [user('admin'), user('compensation_planner'), user('analyst'), user('people_manager'), user('employee')];
    await switchOn(company.id, ['offer_letters', 'bands']);
    await switchOn(other.id, ['offer_letters']);

    // The live band: SE P3 in the catch-all zone, set by hand to 100k / 120k / 140k.
    expect((await call(admin, '/api/bands/pay-zones')).status).toBe(200);
    const job = await call<Data<Schemas['CompanyJob']>>(admin, '/api/bands/jobs', { method: 'POST', json: { jobFamilyId: 'software_engineering', levelId: 'p3', jobCode: 'ENG-3' } });
    expect(job.status).toBe(201);
    seP3JobId = job.body.data.id;
    const set = await call<Data<Schemas['BandSetDetail']>>(admin, '/api/bands/band-sets', { method: 'POST', json: { name: 'Offer bands', currency: 'USD' } });
    const built = await call<Data<Schemas['BandBuildResult']>>(admin, `/api/bands/band-sets/${set.body.data.id}/build`, { method: 'POST', json: { targetPercentile: 50, width: { kind: 'plusMinus', percent: 20 } } });
    expect(built.status, JSON.stringify(built.body)).toBe(200);
    const band = built.body.data.bandSet.bands.find((b) => b.levelId === 'p3');
    if (!band) throw new Error('no P3 band built');
    const edited = await call(admin, `/api/bands/band-sets/${set.body.data.id}/bands/${band.id}`, { method: 'PATCH', ifMatch: band.version, json: { min: USD(100_000), mid: USD(120_000), max: USD(140_000) } });
    expect(edited.status).toBe(200);
    const current = await call<Data<Schemas['BandSetDetail']>>(admin, `/api/bands/band-sets/${set.body.data.id}`);
    expect((await call(admin, `/api/bands/band-sets/${set.body.data.id}/publish`, { method: 'POST', ifMatch: current.body.data.version, json: {} })).status).toBe(200);

    // Peers at SE P3.
    for (const [name, amount, currency] of [['Peer A', 100_000, 'USD'], ['Peer B', 120_000, 'USD'], ['Peer C', 160_000, 'USD'], ['Peer D', 90_000, 'EUR']] as const) {
      const id = await insertEmployee(db, company.id, { firstName: name, lastName: 'Peer', currency });
      await insertPay(db, company.id, id, [{ type: 'base_salary', amount: amount * 100, currency, effectiveDate: '2020-01-01' }]);
    }

    const settings = await call(admin, '/api/company/settings', { method: 'PATCH', ifMatch: 1, json: { sharePrice: 5, exercisePrice: 1 } });
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);

    const candidate = async (email: string, firstName: string, lastName: string) => {
      const reply = await call<Data<{ id: string }>>(admin, '/api/candidates', { method: 'POST', json: { email, firstName, lastName } });
      expect(reply.status, JSON.stringify(reply.body)).toBe(201);
      return reply.body.data.id;
    };
    candidates.ada = await candidate(`ada-${company.id.slice(-6)}@candidates.test`, 'Ada', 'Lovelace');
    candidates.grace = await candidate(`grace-${company.id.slice(-6)}@candidates.test`, 'Grace', 'Hopper');
    candidates.formula = await candidate(`formula-${company.id.slice(-6)}@candidates.test`, '=HYPERLINK("x")', 'Cell');

    // Out-of-range offers need the analyst, then the admin, to approve; in Sales any one of the manager and the analyst.
    const rules = await call<Data<Schemas['OfferApprovalSettings']>>(admin, '/api/offers/approval-settings', {
      method: 'PUT',
      ifMatch: 0,
      json: {
        rules: [
          { mode: 'ordered', approverUserIds: [analyst.id, admin.id] },
          { department: 'Sales', mode: 'quorum', approverUserIds: [manager.id, analyst.id], requiredApprovals: 1 },
        ],
      },
    });
    expect(rules.status, JSON.stringify(rules.body)).toBe(200);
    expect(rules.body.data.version).toBe(1);
  });

  afterAll(() => sockets.closeAll());

  it('keeps approval settings under If-Match and names only people who can see offers as approvers', async () => {
    const read = await call<Data<Schemas['OfferApprovalSettings']>>(analyst, '/api/offers/approval-settings');
    expect(read.headers.get('etag')).toBe('"1"');
    expect(read.body.data.rules.map((rule) => [rule.department, rule.mode, rule.requiredApprovals, rule.approvers.map((a) => a.userId)])).toEqual([
      [null, 'ordered', 2, [analyst.id, admin.id]],
      ['Sales', 'quorum', 1, [manager.id, analyst.id]],
    ]);
    const rules = read.body.data.rules.map((rule) => ({ id: rule.id, department: rule.department, mode: rule.mode, approverUserIds: rule.approvers.map((a) => a.userId), requiredApprovals: rule.requiredApprovals }));
    const stale = await call(admin, '/api/offers/approval-settings', { method: 'PUT', ifMatch: 0, json: { rules } });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('version_conflict');
    const noOffers = await call(admin, '/api/offers/approval-settings', { method: 'PUT', ifMatch: 1, json: { rules: [{ mode: 'ordered', approverUserIds: [employee.id] }] } });
    expect(noOffers.status).toBe(400);
    expect(noOffers.body.errors?.[0]).toMatchObject({ field: 'body.rules.0.approverUserIds.0', message: expect.stringContaining('cannot see offers') });
    const tooMany = await call(admin, '/api/offers/approval-settings', { method: 'PUT', ifMatch: 1, json: { rules: [{ mode: 'quorum', approverUserIds: [analyst.id], requiredApprovals: 2 }] } });
    expect(tooMany.body.errors?.[0]?.field).toBe('body.rules.0.requiredApprovals');
    expect((await call(analyst, '/api/offers/approval-settings', { method: 'PUT', ifMatch: 1, json: { rules } })).status).toBe(403);
  });

  it('checks a package against the live band, the market and peers, and asks for approval only out of range', async () => {
    const above = await call<Data<Schemas['OfferChecks']>>(analyst, '/api/offers/check', { method: 'POST', json: { jobFamilyId: 'software_engineering', levelId: 'p3', locationId: 'us_sf_bay_area', currency: 'USD', package: { base: 150_000_00 } } });
    expect(above.status, JSON.stringify(above.body)).toBe(200);
    expect(above.body.data.band).toMatchObject({ band: { min: USD(100_000), mid: USD(120_000), max: USD(140_000) }, compaRatio: 1.25, rangePenetration: 1.25, position: 'above', label: null });
    expect(above.body.data.outOfRange).toBe(true);
    expect(above.body.data.reasons).toEqual(["The base salary is above the band's maximum"]);
    expect(above.body.data.approvalRequired).toBe(true);
    expect(above.body.data.approvalRoute).toMatchObject({ mode: 'ordered', requiredApprovals: 2, approvers: [{ userId: analyst.id }, { userId: admin.id }] });
    expect(above.body.data.internalEquity).toEqual({ peerCount: 4, comparedCount: 3, otherCurrencyCount: 1, min: USD(100_000), median: USD(120_000), max: USD(160_000) });
    expect(above.body.data.market.base?.compensationTypeId).toBe('base');
    expect(above.body.data.market.releaseVersion).toEqual(expect.any(String));

    const inside = await call<Data<Schemas['OfferChecks']>>(manager, '/api/offers/check', { method: 'POST', json: { jobFamilyId: 'software_engineering', levelId: 'p3', locationId: 'us_sf_bay_area', currency: 'USD', package: { base: 130_000_00 } } });
    expect(inside.body.data.band).toMatchObject({ compaRatio: 1.0833, rangePenetration: 0.75, position: 'inside' });
    expect(inside.body.data).toMatchObject({ outOfRange: false, approvalRequired: false, approvalRoute: null });
    // The manager sees pay of their reports only: peers are counted, their pay is absent.
    expect(inside.body.data.internalEquity).toEqual({ peerCount: 4 });
  });

  it('builds an out-of-band offer that goes to its approvers in order, with history', async () => {
    const offer = await create(
      offerInput(candidates.ada, 150_000, {
        package: { base: 150_000_00, bonusTargetPercent: 10, signOn: 10_000_00, equity: { type: 'option', value: 20_000_00 } },
        alternatives: [{ label: 'More equity', package: { base: 135_000_00, equity: { type: 'option', shares: 8000 } } }],
      }),
    );
    expect(offer).toMatchObject({ state: 'draft', version: 1, outOfRange: true, title: 'Software Engineering', candidate: { firstName: 'Ada', lastName: 'Lovelace' } });
    expect(offer.package).toMatchObject({
      base: USD(150_000),
      bonusTarget: USD(15_000),
      totalCash: USD(165_000),
      signOn: USD(10_000),
      equity: { type: 'option', shares: 4000, strikePrice: 1, strikeDefaulted: true, pricePerShare: 5, vestingMonths: 48, cliffMonths: 12, vestingFrequency: 'monthly' },
    });
    expect(offer.alternatives[0]).toMatchObject({ label: 'More equity', band: { position: 'inside', compaRatio: 1.125 } });
    expect(offer.actions).toEqual(['edit', 'delete', 'submit']);

    const pending = (await act(planner, offer, 'submit')).body.data;
    expect(pending.state).toBe('pendingApproval');
    expect(pending.approval?.approvers.map((a) => a.decision)).toEqual([null, null]);
    // Not yet approved: it cannot be sent.
    const early = await act(planner, pending, 'send');
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ code: 'invalid_transition', message: 'A pending offer cannot be sent.' });
    // In order: the admin is second, so not yet.
    const outOfTurn = await act(admin, pending, 'approve');
    expect(outOfTurn.status).toBe(403);
    expect(outOfTurn.body.message).toBe('This offer is not waiting for your approval.');
    expect((await get(offer.id, admin)).actions).not.toContain('approve');
    expect((await get(offer.id, analyst)).actions).toEqual(['approve', 'reject']);
    const first = await act(analyst, pending, 'approve', { comment: 'Strong candidate' });
    expect(first.body.data.state).toBe('pendingApproval');
    const second = await act(admin, first.body.data, 'approve');
    expect(second.body.data.state).toBe('approved');
    expect(second.body.data.approval?.approvers.map((a) => a.decision)).toEqual(['approved', 'approved']);
    expect(second.body.data.history.map((h) => [h.action, h.from, h.to])).toEqual([
      ['submit', 'draft', 'pendingApproval'],
      ['recordApproval', 'pendingApproval', 'pendingApproval'],
      ['approve', 'pendingApproval', 'approved'],
    ]);
    expect(second.body.data.history[1]).toMatchObject({ comment: 'Strong candidate', actor: { kind: 'user', userId: analyst.id } });
    // A stale version is refused.
    expect((await act(planner, pending, 'send')).status).toBe(409);
  });

  it('takes any one of N approvers for a department with a quorum rule, and a rejection needs a reason', async () => {
    const offer = await create(offerInput(candidates.grace, 150_000, { department: 'Sales' }));
    const pending = (await act(planner, offer, 'submit')).body.data;
    expect(pending.approval).toMatchObject({ mode: 'quorum', requiredApprovals: 1 });
    const noReason = await act(manager, pending, 'reject');
    expect(noReason.status).toBe(400);
    expect(noReason.body.errors?.[0]?.field).toBe('body.comment');
    const rejected = await act(manager, pending, 'reject', { comment: 'Too far above the band' });
    expect(rejected.body.data.state).toBe('draft');
    const again = (await act(planner, rejected.body.data, 'submit')).body.data;
    const approved = await act(analyst, again, 'approve');
    expect(approved.body.data.state).toBe('approved');
  });

  it('refuses illegal moves with 409 and the state named', async () => {
    const draft = await create(offerInput(candidates.grace, 130_000));
    const send = await act(planner, draft, 'send');
    expect(send.status).toBe(409);
    expect(send.body).toMatchObject({ code: 'invalid_transition', message: 'A draft offer cannot be sent.' });
    const approve = await act(analyst, draft, 'approve');
    expect(approve.body).toMatchObject({ code: 'invalid_transition', message: 'A draft offer cannot be approved.' });
    const rescind = await act(planner, draft, 'rescind', { comment: 'no' });
    expect(rescind.body.code).toBe('invalid_transition');
    // An analyst may read but not make offers.
    expect((await act(analyst, draft, 'submit')).status).toBe(403);
    expect((await call(employee, '/api/offers')).status).toBe(403);
    // A draft is deleted; anything else is not.
    const { offer: sent } = await sentOffer(candidates.grace);
    const refused = await call(planner, `/api/offers/${sent.id}`, { method: 'DELETE' });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('invalid_transition');
    expect((await call(planner, `/api/offers/${draft.id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await call(planner, `/api/offers/${draft.id}`)).status).toBe(404);
  });

  it('opens the letter by its link, counts views live for recruiters, and an edit ends the old link', async () => {
    const socket = await sockets.connect(baseUrl(), planner.token);
    const heard: { offerId: string; event: string }[] = [];
    socket.on('emitOfferUpdate', (payload: { offerId: string; event: string }) => heard.push(payload));
    const { offer, token } = await sentOffer(candidates.ada, 130_000, {
      package: { base: 130_000_00, equity: { type: 'rsu', shares: 1000 } },
      alternatives: [{ label: 'More cash', package: { base: 138_000_00 } }],
    });
    expect(token).toMatch(/^ol_/);
    expect((await db('offer_letter_links').where({ offer_id: offer.id }).first<{ token_hash: string }>()).token_hash).not.toContain(token);

    const opened = await letter(token);
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    expect(opened.body.data).toMatchObject({
      state: 'opened',
      company: { name: 'Offers Co', brandColor: expect.stringMatching(/^#[0-9a-f]{6}$/i) },
      candidate: { firstName: 'Ada', lastName: 'Lovelace' },
      title: 'Software Engineering',
      startDate: START,
      welcomeMessage: 'We would love you to join us.',
      equityFacts: { pricePerShare: 5, currency: 'USD', exercisePrice: 1 },
    });
    expect(opened.body.data.packages.map((p) => [p.label, p.package.base.amount])).toEqual([
      ['Offer', 130_000_00],
      ['More cash', 138_000_00],
    ]);
    await letter(token);
    const seen = await get(offer.id);
    expect(seen).toMatchObject({ state: 'opened', viewCount: 2, openedAt: expect.any(String) });
    expect(seen.history.at(-1)).toMatchObject({ action: 'open', actor: { kind: 'candidate', name: 'Ada Lovelace' } });
    await until(() => heard.some((h) => h.offerId === offer.id && h.event === 'opened') && heard.some((h) => h.offerId === offer.id && h.event === 'viewed'));

    // Editing the sent offer returns it to draft: the old link stops working until it is sent again.
    const edited = await call<Data<Offer>>(planner, `/api/offers/${offer.id}`, { method: 'PATCH', ifMatch: seen.version, json: { package: { base: 132_000_00 } } });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.data.state).toBe('draft');
    expect(edited.body.data.history.at(-1)).toMatchObject({ action: 'revise', from: 'opened', to: 'draft' });
    const old = await letter(token);
    expect(old.status).toBe(410);
    expect(old.body.code).toBe('link_superseded');
    const stale = await call(planner, `/api/offers/${offer.id}`, { method: 'PATCH', ifMatch: seen.version, json: { title: 'Stale' } });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('version_conflict');

    const approved = (await act(planner, edited.body.data, 'submit')).body.data;
    const resent = await act(planner, approved, 'send');
    const fresh = resent.body.link?.token ?? '';
    expect((await letter(fresh)).body.data.packages[0]?.package.base).toEqual(USD(132_000));
    expect((await letter(token)).status).toBe(410);
    expect((await letter('ol_not-a-token-at-all')).status).toBe(404);
  });

  it('records an acceptance once, with the exact version and package, and creates the employee once', async () => {
    const { offer, token } = await sentOffer(candidates.ada, 130_000, {
      companyJobId: seP3JobId,
      package: { base: 130_000_00, bonusTargetPercent: 12.5, equity: { type: 'option', shares: 4000 } },
      alternatives: [{ id: 'cash', label: 'More cash', package: { base: 138_000_00 } }],
    });
    const read = (await letter(token)).body.data;
    const stale = await call(null, `/api/offer-letters/${token}/accept`, { method: 'POST', json: { signature: 'Ada Lovelace', offerVersion: read.offerVersion - 1 } });
    expect(stale.status).toBe(409);
    const unnamed = await call(null, `/api/offer-letters/${token}/accept`, { method: 'POST', json: { signature: 'Someone Else', offerVersion: read.offerVersion } });
    expect(unnamed.status).toBe(400);
    expect(unnamed.body.message).toBe('Type your full name as the offer names you: Ada Lovelace.');

    const accepted = await call<Data<Letter>>(null, `/api/offer-letters/${token}/accept`, { method: 'POST', json: { signature: '  ada  lovelace ', offerVersion: read.offerVersion } });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.data.state).toBe('accepted');
    expect(accepted.body.data.acceptance).toMatchObject({ signature: 'ada  lovelace', offerVersion: read.offerVersion, alternativeId: null, packageLabel: 'Offer' });

    const twice = await call(null, `/api/offer-letters/${token}/accept`, { method: 'POST', json: { signature: 'Ada Lovelace', offerVersion: read.offerVersion } });
    expect(twice.status).toBe(410);
    expect(twice.body).toMatchObject({ code: 'offer_closed', message: 'This offer has been accepted: the letter no longer opens.' });
    expect((await letter(token)).status).toBe(410);

    const after = await get(offer.id);
    expect(after).toMatchObject({ state: 'accepted', acceptedAt: expect.any(String), hiredEmployeeId: expect.any(String) });
    expect(after.acceptance?.offerVersion).toBe(read.offerVersion);
    const hire = await call<Data<Schemas['Employee']>>(admin, `/api/employees/${after.hiredEmployeeId}`);
    expect(hire.status).toBe(200);
    expect(hire.body.data).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace', startDate: START, jobFamilyId: 'software_engineering', levelId: 'p3' });
    // The hire takes the code of the offer's company job, so bands matching by job code place them in it.
    expect(hire.body.data.jobCode).toBe('ENG-3');
    const pay = await call<Data<Schemas['CompensationRecord'][]>>(admin, `/api/employees/${after.hiredEmployeeId}/compensation`);
    expect(pay.body.data.map((r) => [r.type, r.amount.amount, r.effectiveDate]).sort()).toEqual([
      ['base_salary', 130_000_00, START],
      ['bonus_target', 16_250_00, START],
    ]);
    const grants = await call<Data<Schemas['EquityGrant'][]>>(admin, `/api/employees/${after.hiredEmployeeId}/equity-grants`);
    expect(grants.body.data).toHaveLength(1);
    expect(grants.body.data[0]).toMatchObject({ grantType: 'option', shares: 4000, grantDate: START });
    expect(await db('employees').where({ company_id: company.id, employee_number: `offer-${offer.id}` }).count({ n: '*' })).toEqual([{ n: 1 }]);
  });

  it('accepts an alternative package when the candidate chooses it', async () => {
    const { offer, token } = await sentOffer(candidates.grace, 130_000, { alternatives: [{ id: 'cash', label: 'More cash', package: { base: 138_000_00 } }] });
    const read = (await letter(token)).body.data;
    const wrong = await call(null, `/api/offer-letters/${token}/accept`, { method: 'POST', json: { signature: 'Grace Hopper', offerVersion: read.offerVersion, alternativeId: 'nope' } });
    expect(wrong.status).toBe(400);
    const accepted = await call<Data<Letter>>(null, `/api/offer-letters/${token}/accept`, { method: 'POST', json: { signature: 'Grace Hopper', offerVersion: read.offerVersion, alternativeId: 'cash' } });
    expect(accepted.body.data.acceptance).toMatchObject({ alternativeId: 'cash', packageLabel: 'More cash' });
    const after = await get(offer.id);
    const pay = await call<Data<Schemas['CompensationRecord'][]>>(admin, `/api/employees/${after.hiredEmployeeId}/compensation`);
    expect(pay.body.data.find((r) => r.type === 'base_salary')?.amount).toEqual(USD(138_000));
  });

  it('after the candidate accepts an alternative, shows the accepted package everywhere, and Checks show the approvals as recorded', async () => {
    // $195,000 is above the band's $140,000 maximum: the default rule wants the analyst, then the admin.
    const katherine = (await call<Data<{ id: string }>>(admin, '/api/candidates', { method: 'POST', json: { email: `katherine-${company.id.slice(-6)}@candidates.test`, firstName: 'Katherine', lastName: 'Johnson' } })).body.data.id;
    const offer = await create(
      offerInput(katherine, 195_000, {
        package: { base: 195_000_00, equity: { type: 'rsu', shares: 8000 } },
        alternatives: [{ id: 'equity', label: 'More equity', package: { base: 180_000_00, equity: { type: 'rsu', shares: 14_000 } } }],
      }),
    );
    const pending = (await act(planner, offer, 'submit')).body.data;
    expect(pending.checks.approvalRoute?.approvers.map((a) => a.decision)).toEqual([null, null]);
    const first = (await act(analyst, pending, 'approve')).body.data;
    // The analyst's approval is recorded: Checks say so (not "waiting"), with when.
    expect(first.checks.approvalRoute?.approvers.map((a) => [a.userId, a.decision])).toEqual([
      [analyst.id, 'approved'],
      [admin.id, null],
    ]);
    expect(first.checks.approvalRoute?.approvers[0]?.decidedAt).toEqual(expect.any(String));
    const approved = (await act(admin, first, 'approve')).body.data;
    expect((await get(offer.id)).checks.approvalRoute?.approvers.map((a) => a.decision)).toEqual(['approved', 'approved']);
    const sent = await act(planner, approved, 'send');
    const token = sent.body.link?.token ?? '';
    const read = (await letter(token)).body.data;
    const accepted = await call<Data<Letter>>(null, `/api/offer-letters/${token}/accept`, { method: 'POST', json: { signature: 'Katherine Johnson', offerVersion: read.offerVersion, alternativeId: 'equity' } });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.data.acceptance?.package).toMatchObject({ base: USD(180_000), equity: { type: 'rsu', shares: 14_000 } });

    // The recruiter's offer: the acceptance carries the package accepted; the list shows its base.
    const after = await get(offer.id);
    expect(after.acceptance).toMatchObject({ alternativeId: 'equity', packageLabel: 'More equity', package: { base: USD(180_000), equity: { shares: 14_000 } } });
    expect(after.base).toEqual(USD(180_000));
    expect(after.checks.approvalRoute?.approvers.map((a) => a.decision)).toEqual(['approved', 'approved']);
    const listed = await call<Data<Schemas['OfferSummary'][]>>(planner, '/api/offers?state=accepted');
    expect(listed.body.data.find((o) => o.id === offer.id)?.base).toEqual(USD(180_000));

    // The PDF states the package accepted, not the original.
    const pdf = await fetch(`${baseUrl()}/api/offers/${offer.id}/pdf`, { headers: bearer(planner) });
    const text = pdfText(Buffer.from(await pdf.arrayBuffer()));
    expect(text).toContain('Your package: More equity');
    expect(text).toContain('$180,000');
    expect(text).toContain('14,000 shares');
    expect(text).not.toContain('$195,000');
    expect(text).not.toContain('8,000 shares');

    // The export: the accepted package's figures, named.
    const started = await call<Data<Schemas['BackgroundJob']>>(planner, '/api/offers/exports', { method: 'POST', json: { format: 'csv', state: 'accepted' } });
    const job = await jobEnded(planner, started.body.data.id);
    const file = await fetch(`${baseUrl()}/api/downloads/${job.downloadId}`, { headers: bearer(planner) });
    const rows = parse((await file.text()).replace(/^\uFEFF/, ''), { columns: true }) as Record<string, string>[];
    expect(rows.find((r) => r['Offer ID'] === offer.id)).toMatchObject({ Package: 'More equity', Base: '180000.00', 'Equity type': 'rsu', 'Equity shares': '14000' });

    // The hire record: base and grant of the package accepted.
    const pay = await call<Data<Schemas['CompensationRecord'][]>>(admin, `/api/employees/${after.hiredEmployeeId}/compensation`);
    expect(pay.body.data.find((r) => r.type === 'base_salary')?.amount).toEqual(USD(180_000));
    const grants = await call<Data<Schemas['EquityGrant'][]>>(admin, `/api/employees/${after.hiredEmployeeId}/equity-grants`);
    expect(grants.body.data.map((g) => [g.grantType, g.shares])).toEqual([['rsu', 14_000]]);
  });

  it('submits, sends, approves and rescinds several offers at once, each at its version, refusing a changed or wrong-state offer beside it', async () => {
    type Bulk = Data<Schemas['OfferBulkActionResult']>;
    const bulk = (user: TestUser, json: unknown) => call<Bulk>(user, '/api/offers/bulk-actions', { method: 'POST', json });
    const drafts = [await create(offerInput(candidates.grace, 130_000)), await create(offerInput(candidates.grace, 125_000)), await create(offerInput(candidates.grace, 128_000))];
    const [a, b, c] = drafts as [Offer, Offer, Offer];
    // Someone edits the third after the list was read: its stale version is refused, the others go ahead.
    expect((await call(planner, `/api/offers/${c.id}`, { method: 'PATCH', ifMatch: c.version, json: { title: 'Software Engineer III' } })).status).toBe(200);
    const submitted = await bulk(planner, { action: 'submit', offers: drafts.map((offer) => ({ id: offer.id, version: offer.version })) });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    expect(submitted.body.data).toMatchObject({ action: 'submit', done: 2, refused: 1 });
    expect(submitted.body.data.results.map((result) => [result.offerId, result.outcome, result.code ?? null])).toEqual([
      [a.id, 'done', null],
      [b.id, 'done', null],
      [c.id, 'refused', 'version_conflict'],
    ]);
    expect(submitted.body.data.results[2]).toMatchObject({ message: 'Someone else changed this offer first. Reload and try again.', currentVersion: c.version + 1 });
    expect(submitted.body.data.results[0]?.offer).toMatchObject({ id: a.id, state: 'approved', version: a.version + 1, candidate: { firstName: 'Grace' } });
    expect((await get(c.id)).state).toBe('draft');

    // Send: the approved ones are sent (and their candidates e-mailed); the draft is refused in the single action's words.
    const approvedA = submitted.body.data.results[0]?.offer as Schemas['OfferSummary'];
    const approvedB = submitted.body.data.results[1]?.offer as Schemas['OfferSummary'];
    const draftC = await get(c.id);
    const sent = await bulk(planner, { action: 'send', offers: [approvedA, approvedB, draftC].map((offer) => ({ id: offer.id, version: offer.version })) });
    expect(sent.body.data).toMatchObject({ done: 2, refused: 1 });
    expect(sent.body.data.results[2]).toMatchObject({ outcome: 'refused', code: 'invalid_transition', message: 'A draft offer cannot be sent.' });
    expect((await get(a.id)).state).toBe('sent');

    // Rescinding needs a reason, kept in each offer's history; an offer of another company is not found.
    const sentA = await get(a.id);
    const sentB = await get(b.id);
    const targets = [sentA, sentB].map((offer) => ({ id: offer.id, version: offer.version }));
    const noReason = await bulk(planner, { action: 'rescind', offers: targets });
    expect(noReason.status).toBe(400);
    expect(noReason.body.errors?.[0]?.field).toBe('comment');
    const twice = await bulk(planner, { action: 'rescind', comment: 'Role closed', offers: [...targets, targets[0]] });
    expect(twice.status).toBe(400);
    const foreign = { id: '01900000-0000-7000-8000-000000000000', version: 1 };
    const rescinded = await bulk(planner, { action: 'rescind', comment: 'The role was closed', offers: [...targets, foreign] });
    expect(rescinded.body.data).toMatchObject({ done: 2, refused: 1 });
    expect(rescinded.body.data.results[2]).toMatchObject({ outcome: 'refused', code: 'not_found' });
    const after = await get(a.id);
    expect(after.state).toBe('rescinded');
    expect(after.history.at(-1)).toMatchObject({ action: 'rescind', comment: 'The role was closed', actor: { kind: 'user', userId: planner.id } });

    // Approving needs only view and being awaited: the analyst is first of the ordered rule; the admin, second, is refused on that offer only.
    const outOfBand = await create(offerInput(candidates.ada, 150_000));
    const sales = await create(offerInput(candidates.ada, 150_000, { department: 'Sales' }));
    const pendings = [(await act(planner, outOfBand, 'submit')).body.data, (await act(planner, sales, 'submit')).body.data];
    const early = await bulk(admin, { action: 'approve', offers: pendings.map((offer) => ({ id: offer.id, version: offer.version })) });
    expect(early.body.data.results.map((result) => [result.outcome, result.code ?? null])).toEqual([
      ['refused', 'forbidden'],
      ['refused', 'forbidden'],
    ]);
    const approved = await bulk(analyst, { action: 'approve', comment: 'Fine by me', offers: pendings.map((offer) => ({ id: offer.id, version: offer.version })) });
    expect(approved.body.data).toMatchObject({ done: 2, refused: 0 });
    expect(approved.body.data.results.map((result) => result.offer?.state)).toEqual(['pendingApproval', 'approved']);
    // The analyst may read offers but not submit, send or rescind them.
    const notAllowed = await bulk(analyst, { action: 'submit', offers: [{ id: c.id, version: draftC.version }] });
    expect(notAllowed.status).toBe(403);
    expect(notAllowed.body.message).toBe('Submitting offers needs the offers permission (edit).');
    expect((await bulk(employee, { action: 'approve', offers: [{ id: c.id, version: draftC.version }] })).status).toBe(403);
  });

  it('records a decline with its reason; a declined, rescinded or expired letter does not open', async () => {
    const declined = await sentOffer(candidates.grace);
    expect((await call(null, `/api/offer-letters/${declined.token}/decline`, { method: 'POST', json: { reason: ' ' } })).status).toBe(400);
    const reply = await call<Data<Letter>>(null, `/api/offer-letters/${declined.token}/decline`, { method: 'POST', json: { reason: 'I took another offer' } });
    expect(reply.body.data).toMatchObject({ state: 'declined', declineReason: 'I took another offer' });
    expect((await letter(declined.token)).body).toMatchObject({ code: 'offer_closed', message: 'This offer was declined: the letter no longer opens.' });
    expect(await get(declined.offer.id)).toMatchObject({ state: 'declined', declineReason: 'I took another offer', declinedAt: expect.any(String) });

    const rescinded = await sentOffer(candidates.grace);
    expect((await act(planner, rescinded.offer, 'rescind')).status).toBe(400);
    const withdrawn = await act(planner, rescinded.offer, 'rescind', { comment: 'The role was closed' });
    expect(withdrawn.body.data.state).toBe('rescinded');
    const closed = await letter(rescinded.token);
    expect(closed.status).toBe(410);
    expect(closed.body).toMatchObject({ code: 'offer_closed', message: 'This offer was withdrawn: the letter no longer opens.' });
    expect((await call(null, `/api/offer-letters/${rescinded.token}/pdf`)).status).toBe(410);

    // An offer whose expiry date has passed is expired when it is next read.
    const expiring = await sentOffer(candidates.grace);
    await db('offers').where({ id: expiring.offer.id }).update({ expires_on: '2020-01-01' });
    const expired = await letter(expiring.token);
    expect(expired.status).toBe(410);
    expect(expired.body).toMatchObject({ code: 'offer_closed', message: 'This offer has expired: the letter no longer opens.' });
    const seen = await get(expiring.offer.id);
    expect(seen.state).toBe('expired');
    expect(seen.history.at(-1)).toMatchObject({ action: 'expire', actor: { kind: 'system' } });
    expect((await call<Data<Schemas['OfferSummary'][]>>(planner, '/api/offers?state=expired')).body.data.map((o) => o.id)).toContain(expiring.offer.id);
  });

  it('shows a signed-in candidate only the offers made to their own e-mail, with a token for open letters', async () => {
    const mine = await sentOffer(candidates.ada);
    await sentOffer(candidates.grace);
    const email = (await db('candidates').where({ id: candidates.ada }).first<{ email: string }>()).email;
    const ada = await createTestUser(db, { companyId: company.id, candidate: true, email });
    const found = await call<Data<Schemas['OfferFound'][]>>(ada, '/api/offers/find-by-email', { method: 'POST', json: {} });
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    const ids = found.body.data.map((o) => o.offerId);
    expect(ids).toContain(mine.offer.id);
    const theirs = await db('offers').whereIn('id', ids).distinct('candidate_email');
    expect(theirs).toEqual([{ candidate_email: email }]);
    const open = found.body.data.find((o) => o.offerId === mine.offer.id);
    expect(open).toMatchObject({ state: 'sent', companyName: 'Offers Co', letterToken: expect.stringMatching(/^ol_/) });
    expect((await letter(open?.letterToken ?? '')).body.data.offerId).toBe(mine.offer.id);
    // Closed offers come without a token.
    expect(found.body.data.filter((o) => o.state === 'accepted').every((o) => o.letterToken === null)).toBe(true);
    const someoneElse = await call(ada, '/api/offers/find-by-email', { method: 'POST', json: { email: `grace-${company.id.slice(-6)}@candidates.test` } });
    expect(someoneElse.status).toBe(403);
    expect(someoneElse.body.message).toBe('You can only look up offers made to your own e-mail address.');
  });

  it("answers another company's offer 404, and a company without offer letters 404", async () => {
    const offer = await create(offerInput(candidates.grace, 130_000));
    const outsider = other.users.admin as TestUser;
    expect((await call(outsider, `/api/offers/${offer.id}`)).status).toBe(404);
    expect((await call(outsider, `/api/offers/${offer.id}`, { method: 'PATCH', ifMatch: 1, json: { title: 'Mine now' } })).status).toBe(404);
    expect((await act(outsider, offer, 'submit')).status).toBe(404);
    expect((await call(outsider, `/api/offers/${offer.id}/pdf`)).status).toBe(404);
    expect((await call<Data<unknown[]>>(outsider, '/api/offers')).body.data).toEqual([]);
    const foreignCandidate = await call(outsider, '/api/offers', { method: 'POST', json: offerInput(candidates.grace, 130_000) });
    expect(foreignCandidate.status).toBe(400);
    expect(foreignCandidate.body.errors?.[0]?.field).toBe('body.candidateId');
    const without = await createTestCompany(db, 'No Offers Co');
    const off = await call(without.users.admin as TestUser, '/api/offers');
    expect(off.status).toBe(404);
    expect(off.body.message).toBe('Offer letters is not switched on for your company.');
  });

  it('downloads the letter as a PDF and exports the offers as a formula-safe CSV', async () => {
    const { offer, token } = await sentOffer(candidates.formula);
    for (const [url, headers] of [[`/api/offers/${offer.id}/pdf`, bearer(analyst)], [`/api/offer-letters/${token}/pdf`, {}]] as const) {
      const pdf = await fetch(`${baseUrl()}${url}`, { headers });
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get('content-type')).toContain('application/pdf');
      expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
    }

    // The company's preview records nothing: the offer stays sent, unviewed.
    const preview = await call<Data<Letter>>(analyst, `/api/offers/${offer.id}/letter`);
    expect(preview.body.data).toMatchObject({ offerId: offer.id, state: 'sent', candidate: { firstName: '=HYPERLINK("x")', lastName: 'Cell' } });
    expect(await get(offer.id)).toMatchObject({ state: 'sent', viewCount: 0, openedAt: null });

    const started = await call<Data<Schemas['BackgroundJob']>>(analyst, '/api/offers/exports', { method: 'POST', json: { format: 'csv', state: 'sent' } });
    expect(started.status).toBe(202);
    const job = await jobEnded(analyst, started.body.data.id);
    expect(job.status).toBe('succeeded');
    const file = await fetch(`${baseUrl()}/api/downloads/${job.downloadId}`, { headers: bearer(analyst) });
    const rows = parse((await file.text()).replace(/^\uFEFF/, ''), { columns: true }) as Record<string, string>[];
    const row = rows.find((r) => r['Offer ID'] === offer.id);
    expect(row).toMatchObject({ Candidate: `'=HYPERLINK("x") Cell`, State: 'sent', Base: '130000.00', 'Bonus target %': '10', 'Bonus target': '13000.00', 'Out of band': 'no', Currency: 'USD' });
    expect(rows.every((r) => r.State === 'sent')).toBe(true);
  });

  it('places an offer for a job without its own band in its comp grade’s band, and says which grade', async () => {
    const check = (levelId: string) =>
      call<Data<Schemas['OfferChecks']>>(analyst, '/api/offers/check', { method: 'POST', json: { jobFamilyId: 'software_engineering', levelId, locationId: 'us_sf_bay_area', currency: 'USD', package: { base: 110_000_00 } } });
    // P4 has a company job with grade G4 but no band; before G4 has a band, there is none to place it in.
    const g4 = (await call<Data<Schemas['CompGrade']>>(admin, '/api/bands/grades', { method: 'POST', json: { key: 'G4' } })).body.data;
    expect((await call(admin, '/api/bands/jobs', { method: 'POST', json: { jobFamilyId: 'software_engineering', levelId: 'p4', gradeId: g4.id } })).status).toBe(201);
    expect((await check('p4')).body.data.band).toMatchObject({ band: null, label: 'No band for this job or its grade in this pay zone' });
    // A new live set (a copy of the last) with G4's band 100,000 / 125,000 / 150,000 in the one zone.
    const live = (await call<Data<Schemas['BandSet'][]>>(admin, '/api/bands/band-sets')).body.data.find((set) => set.status === 'live');
    const copy = (await call<Data<Schemas['BandSetDetail']>>(admin, `/api/bands/band-sets/${live?.id}/duplicate`, { method: 'POST', json: { name: 'Offer bands with grades' } })).body.data;
    const zoneId = copy.bands[0]?.payZoneId ?? '';
    expect((await call(admin, `/api/bands/band-sets/${copy.id}/grade-bands`, { method: 'POST', json: { gradeId: g4.id, payZoneId: zoneId, min: USD(100_000), mid: USD(125_000), max: USD(150_000) } })).status).toBe(201);
    const current = (await call<Data<Schemas['BandSetDetail']>>(admin, `/api/bands/band-sets/${copy.id}`)).body.data;
    expect((await call(admin, `/api/bands/band-sets/${copy.id}/publish`, { method: 'POST', ifMatch: current.version, json: {} })).status).toBe(200);
    // 110,000 ÷ 125,000 = 0.88; (110,000 − 100,000) ÷ 50,000 = 0.2.
    expect((await check('p4')).body.data.band).toMatchObject({ bandSetName: 'Offer bands with grades', gradeKey: 'G4', band: { min: USD(100_000), mid: USD(125_000), max: USD(150_000) }, compaRatio: 0.88, rangePenetration: 0.2, position: 'inside', label: null });
    // P3 keeps its own band, with no grade named.
    const p3 = (await check('p3')).body.data.band;
    expect(p3).toMatchObject({ band: { mid: USD(120_000) }, position: 'inside' });
    expect(p3).not.toHaveProperty('gradeKey');
  });
});
