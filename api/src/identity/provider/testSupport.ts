// Test helpers for the sign-in flows: people in the database, and a browser-like client with a cookie jar.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import * as oidc from 'openid-client';
import { newId } from '../../db/ids.js';
import { hashPassword } from '../passwords.js';

export interface TestPerson {
  id: string;
  companyId: string;
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

/** A company and one verified person in it who signs in with a password. */
export async function createPerson(db: Knex, overrides: Partial<Pick<TestPerson, 'email' | 'password'>> = {}): Promise<TestPerson> {
  const now = new Date().toISOString();
  const tag = randomUUID().slice(0, 8);
  const companyId = newId();
  await db('companies').insert({
    id: companyId,
    key: `signin-${tag}`,
    name: `Sign-in Test ${tag}`,
    domains: JSON.stringify([`${tag}.test`]),
    currency: 'USD',
    created_at: now,
    updated_at: now,
  });
  const person: TestPerson = {
    id: newId(),
    companyId,
    email: overrides.email ?? `person-${tag}@${tag}.test`,
    password: overrides.password ?? `correct horse ${tag}`,
    firstName: 'Riley',
    lastName: `Tester-${tag}`,
  };
  await db('users').insert({
    id: person.id,
    company_id: companyId,
    email: person.email,
    first_name: person.firstName,
    last_name: person.lastName,
    password_hash: await hashPassword(person.password),
    email_verified: true,
    created_at: now,
    updated_at: now,
  });
  return person;
}

/** `createPerson`, holding the company's built-in admin role (made the way the API makes a company's roles). */
export async function createAdmin(db: Knex): Promise<TestPerson> {
  const person = await createPerson(db);
  const { seedBuiltinRoles } = await import('../../access/builtinRoles.js');
  const { replaceUserRoles } = await import('../../access/store.js');
  const roles = await seedBuiltinRoles(db, person.companyId);
  await replaceUserRoles(db, { companyId: person.companyId }, person.id, [roles.get('admin') ?? '']);
  return person;
}

interface StoredCookie {
  name: string;
  value: string;
  path: string;
}

export interface Visit {
  response: Response;
  url: URL;
  html: string;
}

type FormFields = Record<string, string>;

/** Just enough of a browser: a path-aware cookie jar and redirects followed by hand. */
export class Browser {
  private readonly cookies = new Map<string, StoredCookie>();

  constructor(private readonly origin: string) {}

  private cookieHeader(url: URL): string {
    return [...this.cookies.values()]
      .filter((c) => url.pathname === c.path || url.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`))
      .sort((a, b) => b.path.length - a.path.length)
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  private store(response: Response, url: URL): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator);
      const value = pair.slice(separator + 1);
      const attribute = (key: string): string | undefined =>
        attributes.find((a) => a.toLowerCase().startsWith(`${key}=`))?.slice(key.length + 1);
      const path = attribute('path') ?? (url.pathname.replace(/\/[^/]*$/, '') || '/');
      const expires = attribute('expires');
      const gone = !value || (expires !== undefined && new Date(expires).getTime() < Date.now()) || attribute('max-age') === '0';
      const key = `${name}|${path}`;
      if (gone) this.cookies.delete(key);
      else this.cookies.set(key, { name, value, path });
    }
  }

  /** One request, no redirect following. */
  async request(target: string | URL, init: { method?: string; form?: FormFields } = {}): Promise<Visit> {
    const url = new URL(target, this.origin);
    const headers = new Headers({ accept: 'text/html' });
    const cookie = this.cookieHeader(url);
    if (cookie) headers.set('cookie', cookie);
    if (init.form) headers.set('content-type', 'application/x-www-form-urlencoded');
    const response = await fetch(url, {
      method: init.method ?? (init.form ? 'POST' : 'GET'),
      headers,
      body: init.form ? new URLSearchParams(init.form).toString() : undefined,
      redirect: 'manual',
    });
    this.store(response, url);
    return { response, url, html: await response.text() };
  }

  /** Follows same-origin redirects until a page renders or `stop` says the destination is reached. */
  async visit(target: string | URL, init: { method?: string; form?: FormFields } = {}, stop: (url: URL) => boolean = () => false): Promise<Visit> {
    let visit = await this.request(target, init);
    for (let hops = 0; hops < 15; hops++) {
      const location = visit.response.headers.get('location');
      if (visit.response.status < 300 || visit.response.status >= 400 || !location) return visit;
      const next = new URL(location, visit.url);
      if (stop(next) || next.origin !== new URL(this.origin).origin) {
        return { ...visit, url: next };
      }
      visit = await this.request(next);
    }
    throw new Error(`too many redirects from ${String(target)}`);
  }
}

/** The value of a hidden input, as oidc-provider and our pages render them. */
export function hiddenValue(html: string, name: string): string {
  const match = new RegExp(`<input type="hidden" name="${name}" value="([^"]*)"`).exec(html);
  if (!match?.[1]) throw new Error(`no hidden ${name} in page:\n${html.slice(0, 2000)}`);
  return match[1];
}

export const WEB_CLIENT = 'paybench-web';
export const CLI_CLIENT = 'paybench-cli';
export const SCOPE = 'openid profile email offline_access';

export function discover(baseUrl: string, clientId: string): Promise<oidc.Configuration> {
  return oidc.discovery(new URL(baseUrl), clientId, undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] });
}

export const callbackUrl = (baseUrl: string): string => `${baseUrl}/auth0/callback`;

export type TokenSet = Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;

/** Starts an authorization request with PKCE and follows it to the sign-in page. */
export async function startSignIn(browser: Browser, config: oidc.Configuration, baseUrl: string): Promise<{ page: Visit; verifier: string; state: string }> {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: callbackUrl(baseUrl),
    scope: SCOPE,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  });
  return { page: await browser.visit(url), verifier, state };
}

const isCallback = (baseUrl: string) => (url: URL): boolean => url.href.startsWith(callbackUrl(baseUrl));

/** Code + PKCE through the real sign-in form, then the token exchange. */
export async function signInWithCode(browser: Browser, config: oidc.Configuration, baseUrl: string, person: Pick<TestPerson, 'email' | 'password'>): Promise<TokenSet> {
  const { page, verifier, state } = await startSignIn(browser, config, baseUrl);
  if (!page.url.pathname.startsWith('/interaction/')) throw new Error(`expected the sign-in page, got ${page.url.href}`);
  const done = await browser.visit(`${page.url.pathname}/login`, { form: { email: person.email, password: person.password } }, isCallback(baseUrl));
  if (!isCallback(baseUrl)(done.url)) throw new Error(`sign-in did not reach the callback: ${done.response.status} ${done.url.href}\n${done.html.slice(0, 1500)}`);
  return oidc.authorizationCodeGrant(config, done.url, { pkceCodeVerifier: verifier, expectedState: state });
}

/** Finishes an interaction that ends at the web app's callback. */
export async function followToCallback(browser: Browser, baseUrl: string, target: string, form: FormFields): Promise<Visit> {
  return browser.visit(target, { form }, isCallback(baseUrl));
}
