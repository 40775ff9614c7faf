import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type Browser, type Page, chromium } from 'playwright-core';
import { expect } from 'vitest';
import { hashToken, newTokenSecret, tokenPrefix } from '../../api/src/access/tokens.js';
import { newId } from '../../api/src/db/ids.js';
import { testDb } from '../../api/test/factories.js';
import { signInThroughProvider as signInSteps } from '../scripts/signInSteps.mjs';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARTIFACTS = path.resolve(import.meta.dirname, '..', '..', 'test-results');

/** Debian's Chromium, headless, with the flags that keep it off the network. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * Screenshots are kept as test artifacts for people to look at. Animations are stopped first and
 * a full page gets a minute: on a busy machine a long page's capture outlasts the default 30 s.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  // A full-page capture on a loaded machine can stall in the renderer; the viewport alone is still worth keeping.
  try {
    await page.screenshot({ path: file, fullPage: true, animations: 'disabled', caret: 'hide', timeout: 30_000 });
  } catch {
    await page.screenshot({ path: file, animations: 'disabled', caret: 'hide', timeout: 30_000 });
  }
}

/** The demo sign-in the shared test server printed (its data dir holds it, readable only by us). */
export function demoPassword(serverEnv: Record<string, string>): string {
  const file = path.join(serverEnv.PAYBENCH_DATA_DIR ?? '', 'demo-sign-in.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { password: string }).password;
}

/**
 * Signs in through the built-in provider's page, accepts the terms if this person has not yet,
 * and waits for the home screen.
 */
export function signInThroughProvider(page: Page, base: string, email: string, password: string): Promise<void> {
  return signInSteps(page, base, email, password, 30_000);
}

/** Serious and critical accessibility violations axe finds on the page, as "rule: help" lines. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Contrast is judged on what settles, not on a panel halfway through sliding in.
  await page.evaluate(() =>
    Promise.all(document.getAnimations().filter((animation) => animation.effect?.getTiming().iterations !== Infinity).map((animation) => animation.finished.catch(() => undefined))),
  );
  const { AxeBuilder } = await import('@axe-core/playwright');
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).slice(0, 3).join(', ')})`);
}

/** A screenshot at 375 px and one at 1280 px, kept with the test artifacts. */
export async function screenshotsAtBothWidths(page: Page, name: string): Promise<void> {
  const before = page.viewportSize();
  await page.setViewportSize({ width: 375, height: 800 });
  await screenshot(page, `${name}-375`);
  await page.setViewportSize({ width: 1280, height: 800 });
  await screenshot(page, `${name}-1280`);
  if (before) await page.setViewportSize(before);
}

/** A personal API token for a demo person, to ask the API directly what the page should show. */
export async function apiTokenOf(email: string): Promise<string> {
  const db = await testDb();
  const user = await db('users').where({ email }).first<{ id: string; company_id: string }>();
  const token = newTokenSecret();
  await db('api_tokens').insert({ id: newId(), company_id: user.company_id, user_id: user.id, name: 'browser test', token_hash: hashToken(token), token_prefix: tokenPrefix(token), created_at: new Date().toISOString() });
  return token;
}

/**
 * The page fits `width` without sideways scrolling. Polled: after a viewport change the layout
 * (and React's media-query state) settles a frame or two later, more so on a loaded machine.
 */
export async function expectNoSidewaysScroll(page: Page, width: number): Promise<void> {
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth), { timeout: 15_000 }).toBeLessThanOrEqual(width);
}
