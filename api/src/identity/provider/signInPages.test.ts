import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../../../test/server.js';
import { verifyPassword } from '../passwords.js';
import { MAX_FAILURES_PER_ADDRESS, MAX_FAILURES_PER_EMAIL } from './throttle.js';
import {
  Browser,
  createPerson,
  discover,
  followToCallback,
  startSignIn,
  type TestPerson,
  WEB_CLIENT,
} from './testSupport.js';

type Server = Awaited<ReturnType<typeof startTestServer>>;

// Its own server: the throttle counts failures per client address, and every test here is 127.0.0.1.
let server: Server;
let web: oidc.Configuration;

beforeAll(async () => {
  server = await startTestServer();
  web = await discover(server.url, WEB_CLIENT);
});
afterAll(() => server?.stop());

/** A browser on the sign-in page of a fresh authorization request. */
async function onSignInPage(): Promise<{ browser: Browser; path: string; verifier: string; state: string }> {
  const browser = new Browser(server.url);
  const { page, verifier, state } = await startSignIn(browser, web, server.url);
  expect(page.response.status).toBe(200);
  return { browser, path: page.url.pathname, verifier, state };
}

async function attempt(browser: Browser, path: string, email: string, password: string): Promise<{ status: number; html: string }> {
  const visit = await browser.visit(`${path}/login`, { form: { email, password } }, () => true);
  return { status: visit.response.status, html: visit.html };
}

describe('sign-up', () => {
  it('creates an unverified person without a company, says to check the e-mail, and lets them sign in', async () => {
    const { browser, path, verifier, state } = await onSignInPage();
    const form = await browser.visit(`${path}/signup`);
    expect(form.response.status).toBe(200);
    for (const label of ['Work email', 'First name', 'Last name', 'Password']) expect(form.html).toContain(`>${label}</label>`);

    const tooShort = await browser.visit(`${path}/signup`, { form: { email: 'New.Person@Example.TEST', firstName: 'New', lastName: 'Person', password: 'short' } });
    expect(tooShort.response.status).toBe(400);
    expect(tooShort.html).toContain('role="alert"');
    expect(tooShort.html).toContain('Use at least 12 characters.');
    expect(tooShort.html).toContain('aria-invalid="true"');
    expect(tooShort.html).toContain('value="new.person@example.test"');

    const sent = await browser.visit(`${path}/signup`, { form: { email: 'New.Person@Example.TEST', firstName: 'New', lastName: 'Person', password: 'a long enough passphrase' } });
    expect(sent.response.status).toBe(200);
    expect(sent.html).toContain('<h1>Check your email</h1>');
    const row = await server.deps.db('users').where({ email: 'new.person@example.test' }).first();
    expect(row).toMatchObject({ company_id: null, first_name: 'New', last_name: 'Person', status: 'active' });
    expect(Boolean(row.email_verified)).toBe(false);
    expect(await verifyPassword(row.password_hash as string, 'a long enough passphrase')).toBe(true);

    // The page leads back to signing in, with the password just chosen.
    const done = await followToCallback(browser, server.url, `${path}/login`, { email: 'new.person@example.test', password: 'a long enough passphrase' });
    const tokens = await oidc.authorizationCodeGrant(web, done.url, { pkceCodeVerifier: verifier, expectedState: state });
    expect(tokens.claims()).toMatchObject({ email: 'new.person@example.test', email_verified: false, given_name: 'New', family_name: 'Person' });
  });

  it('answers a taken e-mail exactly as a new one, and tells only the owner', async () => {
    const existing = await createPerson(server.deps.db);
    const fresh = `fresh-${Date.now()}@example.test`;
    const signUp = async (email: string) => {
      const { browser, path } = await onSignInPage();
      const page = await browser.visit(`${path}/signup`, { form: { email, firstName: 'Other', lastName: 'Person', password: 'another long passphrase' } }, () => true);
      // What differs by nature: the address typed and the sign-in's own id.
      return { status: page.response.status, location: page.response.headers.get('location'), html: page.html.replaceAll(email.toLowerCase(), '<email>').replaceAll(path, '<interaction>') };
    };
    // The attack of the review: the taken address was answered 400 "could not create", the new one 303.
    const taken = await signUp(existing.email.toUpperCase());
    const brandNew = await signUp(fresh);
    expect(taken).toEqual(brandNew);
    expect(taken.status).toBe(200);
    expect(taken.html).toContain('<h1>Check your email</h1>');

    expect(await server.deps.db('users').where({ email: existing.email })).toHaveLength(1);
    const mail = (to: string) => server.deps.db('outbox_emails').where({ to_address: to }).select<{ subject: string; text_body: string }[]>('subject', 'text_body');
    await expect.poll(async () => (await mail(existing.email)).map((entry) => entry.subject), { timeout: 15_000 }).toEqual(['You already have a Paybench account']);
    const [notice] = await mail(existing.email);
    expect(notice?.text_body).toContain(`Sign in here: ${server.url}/login`);
    expect(notice?.text_body).not.toMatch(/password-reset|verify-email|invitation\//);
    await expect.poll(async () => (await mail(fresh)).map((entry) => entry.subject), { timeout: 15_000 }).toEqual(['Confirm your e-mail address for Paybench']);
  });
});

describe('sign-in errors', () => {
  it('says the same thing for an unknown e-mail and a wrong password', async () => {
    const person = await createPerson(server.deps.db);
    const { browser, path } = await onSignInPage();
    const wrongPassword = await attempt(browser, path, person.email, 'not the password');
    const unknownEmail = await attempt(browser, path, `nobody-${Date.now()}@example.test`, 'not the password');
    expect(wrongPassword.status).toBe(401);
    expect(unknownEmail.status).toBe(401);
    const message = (html: string): string | undefined => /<div class="alert" role="alert"><p>([^<]*)<\/p>/.exec(html)?.[1];
    expect(message(wrongPassword.html)).toBe('Incorrect email or password.');
    expect(message(unknownEmail.html)).toBe(message(wrongPassword.html));
  });

  it('refuses a form posted to an interaction this browser is not in', async () => {
    const { path } = await onSignInPage();
    const stranger = new Browser(server.url);
    const forged = await stranger.visit(`${path}/login`, { form: { email: 'a@b.test', password: 'whatever it is' } });
    expect(forged.response.status).toBe(400);
    expect(forged.html).toContain('This sign-in has expired');
  });
});

describe('throttling repeated failures', () => {
  let person: TestPerson;

  beforeAll(async () => {
    person = await createPerson(server.deps.db);
  });

  it('locks an e-mail for 15 minutes after five failures, even for the right password', async () => {
    const { browser, path } = await onSignInPage();
    for (let i = 1; i < MAX_FAILURES_PER_EMAIL; i++) expect((await attempt(browser, path, person.email, `wrong ${i}`)).status).toBe(401);
    const locked = await attempt(browser, path, person.email, 'wrong again');
    expect(locked.status).toBe(429);
    expect(locked.html).toContain('signing in is paused for 15 minutes');

    const right = await attempt(browser, path, person.email, person.password);
    expect(right.status).toBe(429);
    // The lock is per e-mail (and the address has failures to spare): someone else still signs in.
    const other = await createPerson(server.deps.db);
    expect((await attempt(browser, path, other.email, other.password)).status).toBe(303);
  });

  it('checks at most five of thirty parallel wrong passwords for one e-mail, then keeps it locked', async () => {
    // The test above is the control: one attempt at a time, a count made after each check was always
    // in time for the next. Thirty at once all passed a check made before any was counted: the review
    // saw 18 of 30 passwords checked on SQLite and 24–25 on Postgres (this test, run against that
    // code, saw 24 answers of 401 on Postgres). Counting before checking lets five be checked.
    const target = await createPerson(server.deps.db);
    const { browser, path } = await onSignInPage();
    const failuresOf = async (key: string): Promise<number> => Number((await server.deps.db('sign_in_throttle').where({ key }).first<{ failures: number } | undefined>())?.failures ?? 0);
    const addressBefore = await failuresOf('address:127.0.0.1');
    const statuses = await Promise.all(Array.from({ length: 30 }, (_, i) => attempt(browser, path, target.email, `parallel guess ${i}`).then((reply) => reply.status)));
    // Only a checked password can answer 401, and the fifth checked locks: at most four 401s, the rest 429.
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(MAX_FAILURES_PER_EMAIL - 1);
    expect(statuses.filter((status) => status !== 401 && status !== 429)).toEqual([]);
    // Every password checked and wrong counts once against the client address (whose limit is higher): five.
    expect((await failuresOf('address:127.0.0.1')) - addressBefore).toBe(MAX_FAILURES_PER_EMAIL);
    expect((await attempt(browser, path, target.email, target.password)).status).toBe(429);
  });

  it('locks a client address after many failures across e-mails', async () => {
    const other = await createPerson(server.deps.db);
    const { browser, path } = await onSignInPage();
    let last = { status: 0, html: '' };
    for (let i = 0; i < MAX_FAILURES_PER_ADDRESS && last.status !== 429; i++) {
      last = await attempt(browser, path, `guess-${i}@example.test`, 'a guessed password');
    }
    expect(last.status).toBe(429);
    expect(last.html).toContain('signing in is paused');
    expect((await attempt(browser, path, other.email, other.password)).status).toBe(429);
  });
});
