import type { Knex } from 'knex';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createAdmin } from '../../api/src/identity/provider/testSupport.js';
import { testDb } from '../../api/test/factories.js';
import { launchChromium, screenshotsAtBothWidths, seriousViolations, signInThroughProvider } from './browser.js';

const HEADER = 'Emp ID,Legal First Name,Last Name,Work Email,Job Title,Manager ID,Pay Currency,Annual Base Salary,Hire Date';
const GOOD_ROWS = [
  'E1,Ada,Lovelace,ada@example.test,VP Engineering,,USD,"250,000",2021-03-01',
  'E2,Grace,Hopper,grace@example.test,Staff Engineer,E1,USD,"190,000",2022-05-16',
  'E3,Alan,Turing,alan@example.test,Engineer,E1,USD,"150,000",2023-09-04',
];
const csv = (rows: string[]) => Buffer.from([HEADER, ...rows].join('\n') + '\n');

/** Chooses a file in the open import dialog, as a person picking it from their disk. */
async function chooseFile(page: Page, name: string, body: Buffer): Promise<void> {
  await page.getByRole('dialog').locator('input[type="file"]').setInputFiles({ name, mimeType: 'text/csv', buffer: body });
  await page.getByTestId('import-file').filter({ hasText: name }).waitFor({ timeout: 30_000 });
}

describe('people-data imports and connections in a real browser', () => {
  let browser: Browser;
  let db: Knex;
  let person: Awaited<ReturnType<typeof createAdmin>>;
  const base = () => inject('baseUrl');
  const employeesOf = () => db('employees').where({ company_id: person.companyId }).orderBy('employee_number').select<{ employee_number: string; first_name: string; manager_id: string | null }[]>('employee_number', 'first_name', 'manager_id');

  beforeAll(async () => {
    db = await testDb();
    person = await createAdmin(db);
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('an admin uploads an HRIS file, sees every bad line with nothing written, fixes it, checks, imports and saves the mapping', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signInThroughProvider(page, base(), person.email, person.password);
    await page.goto(`${base()}/integrations`);
    await page.getByRole('button', { name: 'Import employees' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import employees' });
    await dialog.waitFor();
    expect(new URL(page.url()).searchParams.get('import')).toBe('employees');

    // One bad row (an unknown currency) and one unknown manager: both reported by line, nothing written.
    await chooseFile(page, 'workers.csv', csv([GOOD_ROWS[0]!, 'E2,Grace,Hopper,grace@example.test,Staff Engineer,E1,EURO,"190,000",2022-05-16', 'E3,Alan,Turing,alan@example.test,Engineer,E9,USD,"150,000",2023-09-04']));
    expect(await dialog.getByTestId('import-file').textContent()).toBe('workers.csv: 3 rows, 9 columns');
    // The columns are matched to Paybench's fields by their names.
    expect(await dialog.getByLabel('Employee ID', { exact: true }).inputValue()).toBe('Emp ID');
    expect(await dialog.getByLabel('Base salary', { exact: true }).inputValue()).toBe('Annual Base Salary');
    await dialog.getByRole('button', { name: 'Check the file' }).click();
    const problems = dialog.locator('.import-problems');
    await problems.waitFor({ timeout: 60_000 });
    const lines = await problems.locator('li').allTextContents();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^line 3: Pay Currency: /);
    expect(lines[1]).toMatch(/^line 4: Manager ID: /);
    expect(await problems.textContent()).toContain('2 problems in the file; nothing was written.');
    expect(await dialog.getByRole('button', { name: 'Import', exact: true }).isDisabled()).toBe(true);
    expect(await employeesOf()).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshotsAtBothWidths(page, `people-import-rejected-${inject('engine')}`);

    // The fixed file: checked first (still nothing written), then imported all at once.
    await chooseFile(page, 'workers-fixed.csv', csv(GOOD_ROWS));
    await dialog.getByRole('button', { name: 'Check the file' }).click();
    await expect
      .poll(() => dialog.locator('.import-plan').textContent(), { timeout: 60_000 })
      .toBe('Every row is fine: 3 to create, 0 to update, 0 unchanged; 3 compensation records to add. Nothing has been written yet.');
    expect(await employeesOf()).toEqual([]);
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await expect.poll(() => dialog.locator('.import-plan').textContent(), { timeout: 60_000 }).toBe('Imported: 3 created, 0 updated, 0 unchanged; 3 compensation records added.');
    const imported = await employeesOf();
    expect(imported.map((row) => [row.employee_number, row.first_name])).toEqual([
      ['E1', 'Ada'],
      ['E2', 'Grace'],
      ['E3', 'Alan'],
    ]);
    expect(imported[0]!.manager_id).toBeNull();
    expect(imported[1]!.manager_id).not.toBeNull();

    // The mapping is kept under a name for next time.
    await dialog.getByLabel('Save this mapping as').fill('Payroll export');
    await dialog.getByRole('button', { name: 'Save mapping' }).click();
    await page.getByText('Mapping “Payroll export” saved.').waitFor({ timeout: 30_000 });
    const saved = await db('people_import_mappings').where({ company_id: person.companyId }).select<{ name: string; mapping: string }[]>('name', 'mapping');
    expect(saved.map((row) => row.name)).toEqual(['Payroll export']);
    expect(JSON.parse(saved[0]!.mapping)).toMatchObject({ employeeId: 'Emp ID', baseSalary: 'Annual Base Salary' });

    // Importing the same file again changes nothing.
    await chooseFile(page, 'workers-fixed.csv', csv(GOOD_ROWS));
    await dialog.getByRole('button', { name: 'Check the file' }).click();
    await expect.poll(() => dialog.locator('.import-plan').textContent(), { timeout: 60_000 }).toContain('0 to create, 0 to update, 3 unchanged; 0 compensation records to add');
    await context.close();
  }, 240_000);

  it('connects a file address, shows its failed test in the connections, and disconnects it', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
    const page = await context.newPage();
    await signInThroughProvider(page, base(), person.email, person.password);
    await page.goto(`${base()}/integrations?integration=hris`);
    const dialog = page.getByRole('dialog', { name: 'Connect HR system' });
    await dialog.waitFor();
    // The select's name is its label and its options; Workday's help texts also say "system".
    const system = dialog.getByRole('combobox', { name: /^System/ });
    expect(await system.inputValue()).toBe('file_url');
    // Every HR system connects here; Workday offers its own form: the report's address and the sign-in.
    expect(await system.locator('option', { hasText: 'not available here' }).count()).toBe(0);
    await system.selectOption('workday');
    await dialog.getByLabel('Report URL (RaaS)').waitFor();
    expect(await dialog.getByLabel('Sign-in').locator('option').allTextContents()).toEqual(expect.arrayContaining(['Integration system user (basic)', 'API client (OAuth refresh token)']));
    // Only the chosen sign-in's fields show: the user and password for basic, the API client's for OAuth.
    expect(await dialog.getByLabel(/^Password/).count()).toBe(1);
    expect(await dialog.getByLabel(/^Client secret/).count()).toBe(0);
    await dialog.getByRole('combobox', { name: /^Sign-in/ }).selectOption('oauth');
    await dialog.getByLabel(/^Client secret/).waitFor();
    expect(await dialog.getByLabel(/^Password/).count()).toBe(0);
    expect(await dialog.getByLabel(/^Refresh token/).count()).toBe(1);
    await system.selectOption('file_url');
    await dialog.getByLabel('Name').fill('Nightly HR export');
    // Loopback addresses are refused unless the deployment allows private networks.
    await dialog.getByLabel('File address').fill('http://127.0.0.1:9/workers.csv');
    await dialog.getByRole('button', { name: 'Connect' }).click();
    await page.getByText(/^Nightly HR export was saved, but its test failed: /).waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await expect.poll(() => page.getByRole('button', { name: 'Connect HR system' }).textContent()).toContain('1 connected');
    expect(await page.getByRole('button', { name: 'Connect Cap table' }).textContent()).toContain('Not connected');

    const row = page.getByRole('table', { name: 'Connections' }).getByRole('row', { name: /Nightly HR export/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('Error');
    expect(await row.textContent()).toContain('Never');
    await page.goto(`${base()}/settings/connections`);
    await row.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshotsAtBothWidths(page, `connections-${inject('engine')}`);

    // Renamed and put on a schedule at the version read.
    await row.getByRole('button', { name: 'Edit' }).click();
    const edit = row.getByRole('form', { name: 'Edit Nightly HR export' });
    await edit.getByLabel('Name').fill('Nightly HRIS export');
    await edit.getByLabel('Sync every (hours)').fill('24');
    expect(await seriousViolations(page)).toEqual([]);
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Nightly HRIS export was saved.').waitFor({ timeout: 30_000 });
    const renamed = page.getByRole('table', { name: 'Connections' }).getByRole('row', { name: /Nightly HRIS export/ });
    await expect.poll(() => renamed.textContent()).toContain('Every 24 h');
    expect(await db('integrations').where({ company_id: person.companyId }).select('name', 'sync_interval_hours')).toEqual([{ name: 'Nightly HRIS export', sync_interval_hours: 24 }]);

    await renamed.getByRole('button', { name: 'Disconnect' }).click();
    await renamed.getByRole('button', { name: 'Disconnect, keep corrections' }).click();
    await page.getByText('No systems are connected yet.').waitFor({ timeout: 30_000 });
    expect(await db('integrations').where({ company_id: person.companyId }).select('id')).toEqual([]);
    await context.close();
  }, 180_000);
});
