import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from './factories.js';
import { type ErrorBody, request } from './http.js';
import type { components } from '../src/contract-types.js';
import { allOperations } from '../src/modules.js';

type Settings = components['schemas']['CompanySettings'];
type Profile = components['schemas']['CompanyProfile'];

const WHO = ['admin', 'compensation_planner', 'analyst', 'people_manager', 'employee', 'candidate'] as const;
type Who = (typeof WHO)[number];

/**
 * Who reads each piece of company configuration, from docs/permissions.md: `companySettings` view
 * (admin, planner) for the settings, the company record, its tags and its release flags; `dataLab`
 * view (admin, planner, analyst) for the data-lab subscription; every member but a candidate for
 * the profile, onboarding and data-submission status.
 */
const READERS: Record<string, readonly Who[]> = {
  '/api/company': ['admin', 'compensation_planner'],
  '/api/company/settings': ['admin', 'compensation_planner'],
  '/api/company/enterprise-tags': ['admin', 'compensation_planner'],
  '/api/me/release-flags': ['admin', 'compensation_planner'],
  '/api/data-lab/subscription': ['admin', 'compensation_planner', 'analyst'],
  '/api/company/profile': ['admin', 'compensation_planner', 'analyst', 'people_manager', 'employee'],
  '/api/company/onboarding': ['admin', 'compensation_planner', 'analyst', 'people_manager', 'employee'],
  '/api/company/data-submission-status': ['admin', 'compensation_planner', 'analyst', 'people_manager', 'employee'],
  '/api/company/comp-types': ['admin', 'compensation_planner', 'analyst', 'people_manager', 'employee'],
};

/**
 * Every operation open to any member of a company, candidates included (`member`): each is about the
 * caller alone (their own jobs, downloads, notification settings, letters, surveys, requests, offer)
 * or refuses a candidate itself. A new one joins this list only when that is true of it too; anything
 * else a member reads is `colleague` (not a candidate) or needs a permission.
 */
const A_PERSONS_OWN = [
  'cancelBackgroundJob',
  'confirmRewardLetter',
  'createAccessRequest',
  'findOffersByEmail',
  'getBackgroundJob',
  'getBenchmarkingContext',
  'getDownload',
  'getDownloadMetadata',
  'getModules',
  'getMyEmployeeRecord',
  'getMyRewardLetter',
  'getNotificationPreferences',
  'getRewardLetter',
  'getRewardLetterPdf',
  'getUserNotificationSettings',
  'listMyAccessRequests',
  'listMyRewardLetters',
  'listUserBackgroundJobs',
  'updateNotificationPreferences',
  'updateUserNotificationSettings',
];

/** What those operations answer a candidate who asks without ids: their own (nothing yet), or a refusal. */
const CANDIDATE_READS: Record<string, number> = {
  '/api/me/modules': 200,
  '/api/benchmarking/context': 403,
  '/api/me/notification-settings': 200,
  '/api/me/notification-preferences': 200,
  '/api/employees/me': 404,
  '/api/data-lab/pulse-surveys/assigned': 403,
  '/api/reward-letters': 404,
  '/api/me/access-requests': 200,
};

describe("the company's configuration", () => {
  let company: TestCompany;
  let people: Record<Who, TestUser>;

  beforeAll(async () => {
    const db = await testDb();
    company = await createTestCompany(db, 'Configured Co');
    const candidate = await createTestUser(db, { companyId: company.id, candidate: true, email: `candidate-${company.id.slice(-6)}@elsewhere.test` });
    people = { ...(company.users as Record<Exclude<Who, 'candidate'>, TestUser>), candidate };
    const now = new Date().toISOString();
    await db('company_flags').insert(['help_desk', 'offer_letters'].map((flag) => ({ company_id: company.id, flag, enabled: true, updated_at: now })));
    const admin = bearer(company.users.admin!);
    const saved = await request<{ data: Settings }>('/api/company/settings', { method: 'PATCH', headers: { ...admin, 'If-Match': '"1"' }, json: { currency: 'EUR', sharePrice: 42.5, valuation: 90_000_000 } });
    expect(saved.status).toBe(200);
  });

  it('is read only by those whose permission covers it; a candidate reads none of it', async () => {
    const answers: string[] = [];
    const expected: string[] = [];
    for (const [path, readers] of Object.entries(READERS)) {
      for (const who of WHO) {
        const reply = await request<ErrorBody>(path, { headers: bearer(people[who]) });
        answers.push(`${who} ${path} ${reply.status}`);
        expected.push(`${who} ${path} ${readers.includes(who) ? 200 : 403}`);
      }
    }
    expect(answers).toEqual(expected);
  });

  it("shows members the company's name, currency and the app-wide flags, never its money", async () => {
    // Positive control: the share price and valuation are there for the holders of companySettings view…
    const planner = await request<{ data: Settings }>('/api/company/settings', { headers: bearer(people.compensation_planner) });
    expect(planner.body.data).toMatchObject({ currency: 'EUR', sharePrice: 42.5, valuation: 90_000_000 });
    // …and an employee, who read them before, gets a refusal that carries none of it.
    const attack = await request<ErrorBody>('/api/company/settings', { headers: bearer(people.employee) });
    expect(attack.status).toBe(403);
    expect(JSON.stringify(attack.body)).not.toContain('42.5');
    const viaCompany = await request<ErrorBody>('/api/company', { headers: bearer(people.employee) });
    expect(viaCompany.status).toBe(403);

    for (const who of ['employee', 'people_manager'] as const) {
      const profile = await request<{ data: Profile }>('/api/company/profile', { headers: bearer(people[who]) });
      // help_desk switched on above; release_job_manager_page is on by default, multiplayer off; offer_letters is a module.
      expect(profile.body.data).toEqual({ id: company.id, name: 'Configured Co', currency: 'EUR', isDemo: false, flags: ['help_desk', 'release_job_manager_page'] });
    }
    const candidate = await request<ErrorBody>('/api/company/profile', { headers: bearer(people.candidate) });
    expect(candidate.body).toMatchObject({ status: 403, message: 'A candidate sees their offer only.' });
    // What a candidate may read: their own offers.
    const offers = await request('/api/offers/find-by-email', { method: 'POST', headers: bearer(people.candidate), json: { email: people.candidate.email } });
    expect(offers.status).toBe(200);
  });

  it('opens to a candidate only operations about the candidate, none of which tells them about the company', async () => {
    expect(allOperations.filter((op) => op.access.kind === 'member').map((op) => op.operationId).sort()).toEqual(A_PERSONS_OWN);
    const answers: Record<string, number> = {};
    for (const path of Object.keys(CANDIDATE_READS)) {
      const reply = await request<unknown>(path, { headers: bearer(people.candidate) });
      answers[path] = reply.status;
      // Nothing of the company's own: its name, its currency, its settings' money.
      expect(JSON.stringify(reply.body), path).not.toMatch(/Configured Co|EUR|42\.5|90000000/);
    }
    expect(answers).toEqual(CANDIDATE_READS);
  });
});
