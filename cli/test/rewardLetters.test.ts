import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../openapi.js';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../api/test/factories.js';
import { request } from '../../api/test/http.js';
import { switchOnPlanning } from '../../api/src/meritCycles/test/fixtures.js';
import { closedCycleWithLetters } from '../../api/src/rewardLetters/test/fixtures.js';
import { insertEmployee, insertPay } from '../../api/src/team/test/fixtures.js';
import { freshConfigHome, freshRequest, paybench } from './support.js';

type Letters = components['schemas']['RewardLetterCycle'];

/* Two employees whose pay changes in a closed cycle: two letters, released first to managers, then to employees. */
describe('paybench cycles letters release', { timeout: 300_000 }, () => {
  let company: TestCompany;
  let admin: TestUser;
  let env: Record<string, string>;
  let cycleId = '';

  beforeAll(async () => {
    const db = await testDb();
    company = await createTestCompany(db, 'CLI Letters Co');
    admin = company.users.admin as TestUser;
    const support = await createTestUser(db, { companyId: company.id, internalAdmin: true });
    const call = (url: string, init: { method: string; token: string; json?: unknown; ifMatch?: number }) =>
      request(url, { method: init.method, headers: { ...bearer({ token: init.token }), ...(init.ifMatch === undefined ? {} : { 'If-Match': `"${init.ifMatch}"` }) }, json: init.json });
    await switchOnPlanning(call, support.token, company.id);
    const ada = await insertEmployee(db, company.id, { firstName: 'Ada', lastName: 'Anchor', performanceRating: 'meets' });
    await insertPay(db, company.id, ada, [{ type: 'base_salary', amount: 10_000_000, effectiveDate: '2024-01-01' }]);
    const bo = await insertEmployee(db, company.id, { firstName: 'Bo', lastName: 'Baker', performanceRating: 'meets' });
    await insertPay(db, company.id, bo, [{ type: 'base_salary', amount: 5_000_000, effectiveDate: '2024-01-01' }]);
    cycleId = await closedCycleWithLetters(call, admin.token, { name: 'Letters 2026', effectiveDate: '2026-04-01' }, {
      [ada]: { meritAmount: { amount: 300_000, currency: 'USD' } },
      [bo]: { meritAmount: { amount: 150_000, currency: 'USD' } },
    });
    env = { PAYBENCH_TOKEN: admin.token, XDG_CONFIG_HOME: freshConfigHome() };
  });

  const letters = async () => (await freshRequest<{ data: Letters }>(`/api/v2/meritCycles/${cycleId}/rewardLetters`, { token: admin.token })).body.data;

  it('releases the letters to managers, then to employees, and refuses a release the state does not allow', async () => {
    expect(await letters()).toMatchObject({ state: 'draft', letterCount: 2, releasedCount: 0 });
    const managers = paybench(['cycles', 'letters', 'release', cycleId, '--to', 'managers'], env);
    expect(managers.stderr).toBe('');
    expect(managers.code).toBe(0);
    expect(managers.stdout).toBe('Released 2 letters of Letters 2026 to their managers.\n');
    expect(await letters()).toMatchObject({ state: 'managers', releasedCount: 0 });
    const employees = paybench(['cycles', 'letters', 'release', cycleId, '--to', 'employees'], env);
    expect(employees.stderr).toBe('');
    expect(employees.code).toBe(0);
    expect(employees.stdout).toBe('Released 2 letters of Letters 2026 to their employees.\n');
    expect(await letters()).toMatchObject({ state: 'released', releasedCount: 2 });
    const again = paybench(['cycles', 'letters', 'release', cycleId, '--to', 'managers'], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('409');
    const wrong = paybench(['cycles', 'letters', 'release', cycleId, '--to', 'everyone'], env);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--to must be managers or employees, not "everyone".');
  });

  it('answers another company’s cycle as not found, exit 1', async () => {
    const other = await createTestCompany(await testDb(), 'CLI Other Letters Co');
    const stranger = paybench(['cycles', 'letters', 'release', cycleId, '--to', 'managers'], { ...env, PAYBENCH_TOKEN: (other.users.admin as TestUser).token });
    expect(stranger.code).toBe(1);
    expect(stranger.stderr).toContain('404');
  });
});
