/**
 * Merit cycles' target "a planner's worksheet of 2,000 rows renders interactive ≤ 2 s in Chromium",
 * measured in Debian's Chromium (CHROMIUM_PATH, default /usr/bin/chromium) against the web app the
 * server serves (build it first: `npm run build`). The planner signs in through the built-in
 * provider once; each sample is then one visit to the worksheet's address, from the navigation's
 * start until the grid has drawn its rows and answers the planner: a click on the first row's merit
 * cell and a typed digit open the cell's editor with that digit in it (Escape leaves it unsaved).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import { chromium } from 'playwright-core';
import { signInThroughProvider } from '../../web/scripts/signInSteps.mjs';
import { hashPassword } from '../src/identity/passwords.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const WEB_BUILD = path.resolve(import.meta.dirname, '..', '..', 'web', 'dist', 'index.html');

/** Why the browser figure cannot be taken here, or null when it can. */
export function browserUnavailable(): string | null {
  if (!existsSync(CHROMIUM)) return `no Chromium at ${CHROMIUM} (set CHROMIUM_PATH)`;
  if (!existsSync(WEB_BUILD)) return 'the web app is not built (npm run build)';
  return null;
}

/** Gives the planner a password, so they can sign in through the provider's page as a person does. */
export async function plannerPassword(db: Knex, userId: string): Promise<string> {
  const password = `bench-${Math.random().toString(36).slice(2)}-Planner1`;
  await db('users').where({ id: userId }).update({ password_hash: await hashPassword(password) });
  return password;
}

/** Samples in ms; `editable` names employees whose merit cell the planner may change (the eligible). */
export async function timeWorksheetInBrowser(options: { baseUrl: string; email: string; password: string; worksheetPath: string; editable: Set<string>; runs: number }): Promise<number[]> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await signInThroughProvider(page, options.baseUrl, options.email, options.password);
    const samples: number[] = [];
    // The first visit loads the screen's code and warms the server; a planner coming back has both.
    for (let run = 0; run < options.runs + 1; run += 1) {
      await page.goto('about:blank');
      const started = performance.now();
      await page.goto(`${options.baseUrl}${options.worksheetPath}`);
      const rows = page.locator('[role="grid"] [role="row"][data-employee-id]');
      await rows.first().waitFor();
      const drawn = await rows.evaluateAll((elements) => elements.map((element) => element.getAttribute('data-employee-id') ?? ''));
      const employeeId = drawn.find((id) => options.editable.has(id));
      if (!employeeId) throw new Error('no row the planner may edit is drawn at the top of the worksheet');
      await page.locator(`[role="grid"] [role="row"][data-employee-id="${employeeId}"] [data-col="meritPercent"]`).click();
      await page.keyboard.type('3');
      // The cell's editor, not a row's selection checkbox.
      const editor = page.locator('[role="grid"] input:not([type="checkbox"])').first();
      await editor.waitFor();
      const elapsed = performance.now() - started;
      const typed = await editor.inputValue();
      if (!typed.endsWith('3')) throw new Error(`the worksheet's editor showed "${typed}", not the digit typed`);
      await page.keyboard.press('Escape');
      if (run > 0) samples.push(elapsed);
    }
    await context.close();
    return samples;
  } finally {
    await browser.close();
  }
}
