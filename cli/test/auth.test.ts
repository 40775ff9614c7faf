import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { testDb } from '../../api/test/factories.js';
import { Browser, createPerson, hiddenValue, type TestPerson } from '../../api/src/identity/provider/testSupport.js';
import { freshConfigHome, paybench, paybenchInBackground } from './support.js';

/** Approves a device code the way a person would in a browser: enter the code, sign in, allow. */
async function approve(userCode: string, person: TestPerson): Promise<void> {
  const browser = new Browser(inject('baseUrl'));
  const entry = await browser.visit('/oauth/device');
  const confirm = await browser.visit('/oauth/device', { form: { xsrf: hiddenValue(entry.html, 'xsrf'), user_code: userCode } });
  const signIn = await browser.visit('/oauth/device', {
    form: { xsrf: hiddenValue(confirm.html, 'xsrf'), user_code: hiddenValue(confirm.html, 'user_code'), confirm: hiddenValue(confirm.html, 'confirm') },
  });
  const consent = await browser.visit(`${signIn.url.pathname}/login`, { form: { email: person.email, password: person.password } });
  expect(consent.html).toContain('Allow Paybench CLI?');
  const done = await browser.visit(`${consent.url.pathname}/consent`, { form: { decision: 'allow' } });
  expect(done.html).toContain('Paybench CLI is now signed in');
}

interface StoredConfig {
  profiles: Record<string, { url: string; email: string; accessToken: string; refreshToken: string; expiresAt: number }>;
}

describe('paybench login', () => {
  let person: TestPerson;
  let home: string;
  beforeAll(async () => {
    person = await createPerson(await testDb());
    home = freshConfigHome();
  });
  const configPath = () => path.join(home, 'paybench', 'config.json');
  const readConfig = () => JSON.parse(readFileSync(configPath(), 'utf8')) as StoredConfig;

  it('signs in with a code approved in the browser, and keeps the tokens in a private file', async () => {
    const login = paybenchInBackground(['login'], { XDG_CONFIG_HOME: home });
    const [, url, code] = await login.stderrMatch(/open (\S+) and enter the code ([B-Z]{4}-[B-Z]{4})/);
    expect(url).toBe(`${inject('baseUrl')}/oauth/device`);
    await approve(code ?? '', person);
    const run = await login.done;
    expect(run.stderr).not.toContain('Error');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`Signed in to ${inject('baseUrl')} as ${person.email}\n`);
    expect(statSync(configPath()).mode & 0o777).toBe(0o600);
    expect(readConfig().profiles.default).toMatchObject({ url: inject('baseUrl'), email: person.email });

    const whoami = paybench(['whoami', '--json'], { XDG_CONFIG_HOME: home });
    expect(whoami.code).toBe(0);
    expect(JSON.parse(whoami.stdout)).toMatchObject({ id: person.id, email: person.email, firstName: person.firstName });
  });

  it('refreshes an expired sign-in by itself, keeping the rotated refresh token', async () => {
    const before = readConfig();
    const profile = before.profiles.default!;
    writeFileSync(configPath(), JSON.stringify({ profiles: { default: { ...profile, expiresAt: 0 } } }), { mode: 0o600 });
    const whoami = paybench(['whoami'], { XDG_CONFIG_HOME: home });
    expect(whoami.code).toBe(0);
    expect(whoami.stdout).toMatch(new RegExp(`^Email\\s+${person.email.replace(/[.]/g, '\\.')}$`, 'm'));
    const after = readConfig().profiles.default!;
    expect(after.refreshToken).not.toBe(profile.refreshToken);
    expect(after.expiresAt).toBeGreaterThan(Date.now());
    expect(statSync(configPath()).mode & 0o777).toBe(0o600);
  });

  it('prefers --token over the profile, and forgets the sign-in on logout', () => {
    const bogus = paybench(['whoami', '--token', 'not-a-token'], { XDG_CONFIG_HOME: home });
    expect(bogus.code).toBe(1);
    expect(bogus.stderr).toContain('401');
    expect(paybench(['logout'], { XDG_CONFIG_HOME: home }).stdout).toBe('Signed out (profile default).\n');
    const after = paybench(['whoami'], { XDG_CONFIG_HOME: home });
    expect(after.code).toBe(1);
    expect(after.stderr).toContain('Not signed in');
  });
});
