import type { Knex } from 'knex';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { components } from '../../openapi.d.ts';
import { replaceUserRoles } from '../../api/src/access/store.js';
import { insertUser } from '../../api/src/access/usersStore.js';
import { newId } from '../../api/src/db/ids.js';
import { hashPassword } from '../../api/src/identity/passwords.js';
import { type TestPerson, createAdmin } from '../../api/src/identity/provider/testSupport.js';
import { bearer, createTestUser, testDb } from '../../api/test/factories.js';
import { request } from '../../api/test/http.js';
import { apiTokenOf, launchChromium, screenshotsAtBothWidths, seriousViolations, signInThroughProvider } from './browser.js';

type User = components['schemas']['User'];
type Role = components['schemas']['Role'];

interface Member {
  id: string;
  email: string;
  password: string;
  name: string;
}

/** A person of the company who signs in with a password, holding the employee role. */
async function addEmployee(db: Knex, companyId: string, firstName: string, lastName: string): Promise<Member> {
  const id = newId();
  const email = `${firstName.toLowerCase()}-${id.slice(-8)}@${companyId.slice(-6)}.test`;
  const password = `pw-${newId()}`;
  await insertUser(db, { id, email, company_id: companyId, first_name: firstName, last_name: lastName, password_hash: await hashPassword(password), email_verified: true });
  const employeeRole = await db('roles').where({ company_id: companyId, key: 'employee' }).first<{ id: string }>();
  await replaceUserRoles(db, { companyId }, id, [employeeRole.id]);
  return { id, email, password, name: `${firstName} ${lastName}` };
}

describe('administering users, roles and access in the app', () => {
  let browser: Browser;
  let db: Knex;
  let admin: TestPerson;
  let adminToken: string;
  let companyName: string;
  let employee: Member;
  let colleague: Member;
  const base = () => inject('baseUrl');
  const engine = inject('engine');

  async function signedIn(person: { email: string; password: string }): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await signInThroughProvider(page, base(), person.email, person.password);
    return page;
  }

  const userNow = async (id: string) => (await request<{ data: User }>(`/api/users/${id}`, { headers: { Authorization: `Bearer ${adminToken}` } })).body.data;

  beforeAll(async () => {
    db = await testDb();
    // A company of its own, with salary bands on and the team view off; an internal admin sits in it too.
    admin = await createAdmin(db);
    adminToken = await apiTokenOf(admin.email);
    companyName = (await db('companies').where({ id: admin.companyId }).first<{ name: string }>()).name;
    employee = await addEmployee(db, admin.companyId, 'Erin', 'Asker');
    colleague = await addEmployee(db, admin.companyId, 'Cole', 'Colleague');
    const support = await createTestUser(db, { companyId: admin.companyId, internalAdmin: true, email: `support-${admin.companyId.slice(-6)}@paybench.test` });
    expect((await request(`/api/internal/companies/${admin.companyId}/release-flags/bands`, { method: 'PUT', headers: bearer(support), json: { enabled: true } })).status).toBe(200);
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('lets an admin add a person with an invitation, create a role in words, and give it to someone', async () => {
    const page = await signedIn(admin);
    await page.goto(`${base()}/settings/users`);
    const table = page.getByRole('grid', { name: 'Users' });
    await table.getByRole('button', { name: employee.name }).waitFor();
    // Internal staff are not among the company's users.
    expect(await table.locator('[role="row"][data-user]').count()).toBe(3);
    expect(await table.textContent()).not.toContain('paybench.test');

    // Adding a person: the invitation is on by default and goes out.
    await page.getByRole('button', { name: 'Add a person' }).click();
    const sheet = page.getByRole('dialog', { name: 'Add a person' });
    expect(await sheet.getByLabel('Send an invitation').isChecked()).toBe(true);
    const newcomer = `nina-${admin.companyId.slice(-8)}@example.test`;
    await sheet.getByLabel('First name').fill('Nina');
    await sheet.getByLabel('Last name').fill('Newcomer');
    await sheet.getByLabel('E-mail').fill(newcomer);
    const created = page.waitForResponse((response) => response.url().endsWith('/api/users') && response.request().method() === 'POST');
    await sheet.getByRole('button', { name: 'Add person' }).click();
    expect((await created).status()).toBe(201);
    await table.getByRole('button', { name: 'Nina Newcomer' }).waitFor();
    await expect.poll(async () => (await db('outbox_emails').where({ to_address: newcomer })).length, { timeout: 20_000 }).toBe(1);

    // A role made in words: Offers, can see and change.
    await page.goto(`${base()}/settings/roles`);
    const planner = page.locator('[data-role="compensation_planner"]');
    await planner.waitFor();
    expect(await planner.textContent()).toContain('Built-in, read-only');
    expect(await planner.textContent()).toContain('Employee pay: can see and change for the whole company');
    expect(await planner.getByRole('button', { name: /^Change / }).count()).toBe(0);
    expect(await page.locator('[data-role="admin"] .count').textContent()).toBe('1 person');
    await page.getByRole('button', { name: 'New role' }).click();
    const editor = page.getByRole('dialog', { name: 'New role' });
    await editor.getByLabel('Name', { exact: true }).fill('Recruiter');
    await editor.getByLabel('Description').fill('Makes offers to candidates.');
    await editor.getByLabel('Offers: access').selectOption('edit');
    await editor.getByLabel('Market data: access').selectOption('view');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshotsAtBothWidths(page, `role-editor-${engine}`);
    await editor.getByRole('button', { name: 'Create role' }).click();
    const recruiter = page.locator('[data-role="recruiter"]');
    await recruiter.waitFor();
    expect(await recruiter.locator('.count').textContent()).toBe('0 people');
    expect(await recruiter.getByRole('list', { name: 'What the Recruiter role allows' }).locator('li').allTextContents()).toEqual([
      'Market data: can see for the whole company',
      'Offers: can see and change for the whole company',
    ]);
    const stored = (await request<{ data: Role[] }>('/api/roles', { headers: { Authorization: `Bearer ${adminToken}` } })).body.data.find((role) => role.key === 'recruiter');
    expect(stored?.permissions).toEqual({ offers: [{ authority: 'edit', scope: 'all' }], benchmarking: [{ authority: 'view', scope: 'all' }] });

    // Given to a colleague from the users screen.
    await page.goto(`${base()}/settings/users`);
    await table.getByRole('button', { name: colleague.name }).click();
    const manage = page.getByRole('dialog', { name: colleague.name });
    await manage.getByLabel('Recruiter').check();
    await manage.getByRole('button', { name: 'Save roles' }).click();
    await page.getByText(`Saved ${colleague.name}’s roles.`).waitFor();
    expect((await userNow(colleague.id)).roles.map((role) => role.key).sort()).toEqual(['employee', 'recruiter']);
    expect(await seriousViolations(page)).toEqual([]);
    await manage.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => table.locator(`[role="row"][data-user="${colleague.email}"]`).textContent()).toContain('Recruiter');

    await page.goto(`${base()}/settings/roles`);
    await expect.poll(() => recruiter.locator('.count').textContent()).toBe('1 person');
    await recruiter.getByRole('button', { name: 'Who has Recruiter' }).click();
    await recruiter.getByRole('list', { name: 'People with the Recruiter role' }).getByText(colleague.email).waitFor();
    await screenshotsAtBothWidths(page, `roles-${engine}`);

    // The newcomer's invitation stands open and can be revoked, then sent again.
    await page.goto(`${base()}/settings/users`);
    await table.getByRole('button', { name: 'Nina Newcomer' }).click();
    const nina = page.getByRole('dialog', { name: 'Nina Newcomer' });
    await expect.poll(() => nina.getByTestId('invitation-state').textContent()).toMatch(/^Invitation sent, valid until /);
    await nina.getByRole('button', { name: 'Revoke the invitation' }).click();
    await expect.poll(() => nina.getByTestId('invitation-state').textContent()).toBe('Invitation revoked');
    await nina.getByRole('button', { name: 'Resend the invitation' }).click();
    await expect.poll(() => nina.getByTestId('invitation-state').textContent()).toMatch(/^Invitation sent/);
    await nina.getByRole('button', { name: 'Close' }).click();

    // Invitations from the selection: the newcomer never signed in, so hers can be revoked here (then sent again).
    const invitationOf = async () => (await request<{ data: { status: string } }>(`/api/users/${(await db('users').where({ email: newcomer }).first()).id}/invitation`, { headers: { Authorization: `Bearer ${adminToken}` } })).body.data.status;
    await table.getByLabel('Select Nina Newcomer').check();
    await page.getByRole('region', { name: 'Selected users' }).getByRole('button', { name: 'Revoke invitation of 1 person' }).click();
    await page.getByText('Revoked the invitation of 1 person.').waitFor();
    expect(await invitationOf()).toBe('revoked');
    await table.getByLabel('Select Nina Newcomer').check();
    await page.getByRole('region', { name: 'Selected users' }).getByRole('button', { name: 'Resend invitation to 1 person' }).click();
    await page.getByText('Sent a new invitation to 1 person.').waitFor();
    expect(await invitationOf()).toBe('pending');

    // Several at once: a role for two people, then one of them removed.
    await table.getByLabel('Select Nina Newcomer').check();
    await table.getByLabel(`Select ${colleague.name}`).check();
    const selection = page.getByRole('region', { name: 'Selected users' });
    expect(await page.locator('.dgrid-selection [role="status"]').textContent()).toBe('2 selected');
    await selection.getByLabel('Role for the selected').selectOption({ label: 'Recruiter' });
    await selection.getByRole('button', { name: 'Set role' }).click();
    await page.getByText('Set the role of 2 people.').waitFor();
    expect((await userNow(colleague.id)).roles.map((role) => role.key)).toEqual(['recruiter']);
    await expect.poll(() => table.locator(`[role="row"][data-user="${newcomer}"]`).textContent()).toContain('Recruiter');
    await table.getByLabel('Select Nina Newcomer').check();
    await selection.getByRole('button', { name: 'Remove the selected' }).click();
    await selection.getByRole('button', { name: 'Yes, remove 1 person' }).click();
    await page.getByText('Removed 1 person.').waitFor();
    await expect.poll(() => table.locator(`[role="row"][data-user="${newcomer}"]`).count()).toBe(0);
    await page.getByLabel('Status').selectOption('removed');
    await table.getByRole('button', { name: 'Nina Newcomer' }).waitFor();
    await page.context().close();
  }, 180_000);

  it('lets an employee ask for a module at its own address, and the admin grant it', async () => {
    const asking = await signedIn(employee);
    await asking.goto(`${base()}/bands`);
    await asking.getByRole('heading', { name: 'Your role does not include Salary bands' }).waitFor();
    expect(new URL(asking.url()).pathname).toBe('/bands');
    await asking.getByLabel('Why do you need Salary bands?').fill('I price the new support roles.');
    await asking.getByRole('button', { name: 'Request access' }).click();
    await asking.getByRole('heading', { name: 'Access requested' }).waitFor();
    expect(await seriousViolations(asking)).toEqual([]);
    await screenshotsAtBothWidths(asking, `access-requested-${engine}`);

    // The admin hears of it in the app: Home says a request is waiting and leads to it.
    const granting = await signedIn(admin);
    const review = granting.getByRole('link', { name: 'Review access requests' });
    await review.waitFor();
    expect(await granting.getByRole('list', { name: 'Access' }).textContent()).toContain('Erin asks for access.');
    await review.click();
    await granting.waitForURL('**/settings/users');
    const requests = granting.getByRole('list', { name: 'Access requests' });
    const entry = requests.locator('li').filter({ hasText: employee.name });
    await entry.waitFor();
    expect(await entry.textContent()).toContain(`${employee.name} asks for Salary bands`);
    expect(await entry.textContent()).toContain('I price the new support roles.');
    // Read-only analyst is the smallest built-in role with bands; the admin may pick another.
    const pick = entry.getByLabel(`Role to give ${employee.name}`);
    expect(await pick.locator('option:checked').textContent()).toBe('Read-only analyst (covers the request)');
    expect(await seriousViolations(granting)).toEqual([]);
    await screenshotsAtBothWidths(granting, `access-requests-${engine}`);
    await entry.getByRole('button', { name: `Approve ${employee.name}` }).click();
    await granting.getByText(`${employee.name} now has the Read-only analyst role.`).waitFor();
    await expect.poll(() => requests.count()).toBe(0);
    expect((await userNow(employee.id)).roles.map((role) => role.key).sort()).toEqual(['analyst', 'employee']);

    // Asking to give roles: only Admin grants that, so the screen proposes it but leaves the choice to
    // the admin (the review's one-click admin), says who asks and what Admin would grant.
    const asked = await request('/api/access-requests', { method: 'POST', headers: { Authorization: `Bearer ${await apiTokenOf(employee.email)}` }, json: { permission: 'roles', authority: 'edit', reason: 'I hire for my team.' } });
    expect(asked.status).toBe(201);
    await granting.reload();
    const rolesEntry = requests.locator('li').filter({ hasText: 'I hire for my team.' });
    await rolesEntry.waitFor();
    expect(await rolesEntry.textContent()).toContain(`User without an employee record ${employee.email}`);
    await rolesEntry.getByText('Only the Admin role grants this.', { exact: false }).waitFor();
    const rolePick = rolesEntry.getByLabel(`Role to give ${employee.name}`);
    expect(await rolePick.inputValue()).toBe('');
    expect(await rolesEntry.getByRole('button', { name: `Approve ${employee.name}` }).isDisabled()).toBe(true);
    await rolePick.selectOption({ label: 'Admin (covers the request)' });
    expect(await rolesEntry.getByRole('list', { name: 'What Admin grants' }).textContent()).toContain('Roles');
    expect(await rolesEntry.getByRole('button', { name: `Approve ${employee.name}` }).isDisabled()).toBe(false);
    await rolesEntry.getByRole('button', { name: `Decline ${employee.name}` }).click();
    await granting.getByText(`Declined ${employee.name}’s request.`).waitFor();
    expect((await userNow(employee.id)).roles.map((role) => role.key).sort()).toEqual(['analyst', 'employee']);

    // The requester's next look opens the module.
    await asking.reload();
    await asking.getByRole('heading', { name: 'Salary bands', exact: true }).waitFor();
    expect(new URL(asking.url()).pathname).toBe('/bands');
    // …and Home tells them.
    await asking.goto(`${base()}/home`);
    const news = asking.getByRole('list', { name: 'Access' });
    await news.waitFor();
    expect(await news.textContent()).toContain('You now have the Read-only analyst role.');
    await asking.context().close();
    await granting.context().close();
  }, 180_000);

  it('says a switched-off module is off at its own address, and to an admin whom to ask', async () => {
    const page = await signedIn(admin);
    await page.goto(`${base()}/team`);
    const heading = page.getByRole('heading', { name: `Team is not switched on for ${companyName}` });
    await heading.waitFor();
    expect(new URL(page.url()).pathname).toBe('/team');
    expect(await page.locator('main').textContent()).toContain(`ask your Paybench contact (Paybench support) to switch it on for ${companyName}`);
    expect(await page.getByText('Permission denied').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshotsAtBothWidths(page, `module-off-${engine}`);

    // Home says the same of each module, and every card leads to its address.
    await page.goto(`${base()}/home`);
    const team = page.locator('[data-module="teamview"]');
    await team.waitFor();
    expect(await team.textContent()).toContain('Not switched on for your company');
    expect(await team.getByRole('link', { name: 'Team' }).getAttribute('href')).toBe('/team');
    expect(await page.locator('[data-module="bands"]').textContent()).toContain('Available');
    await page.context().close();

    // Someone without admin rights is told their admin can ask.
    const other = await signedIn(colleague);
    await other.goto(`${base()}/team`);
    await other.getByRole('heading', { name: `Team is not switched on for ${companyName}` }).waitFor();
    await other.getByText('Your company admin can ask Paybench to switch it on.').waitFor();
    await other.context().close();
  }, 180_000);
});
