import * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import { testDb } from '../../test/factories.js';
import { type ErrorBody, baseUrl, request } from '../../test/http.js';
import type { components } from '../contract-types.js';
import { Browser, WEB_CLIENT, createPerson, discover, hiddenValue, signInWithCode } from './provider/testSupport.js';

type Person = components['schemas']['Person'];

/** A refresh at the provider's token endpoint, as the web app makes it. */
async function refresh(refreshToken: string): Promise<{ status: number; body: { error?: string; access_token?: string; refresh_token?: string } }> {
  const response = await fetch(`${baseUrl()}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: WEB_CLIENT }).toString(),
  });
  return { status: response.status, body: (await response.json()) as { error?: string; access_token?: string; refresh_token?: string } };
}

describe('a sign-in session against the API', () => {
  it('acts as the person, and ends for the API when they log out', async () => {
    const person = await createPerson(await testDb());
    const tokens = await signInWithCode(new Browser(baseUrl()), await discover(baseUrl(), WEB_CLIENT), baseUrl(), person);
    const auth = { Authorization: `Bearer ${tokens.access_token}` };

    const me = await request<{ data: Person }>('/api/me', { headers: auth });
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ id: person.id, email: person.email, emailVerified: true });

    const logout = await request<{ data: { loggedOutAt: string } }>('/api/me/logout', { method: 'POST', headers: auth });
    expect(logout.status).toBe(200);
    const after = await request<ErrorBody>('/api/me', { headers: auth });
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ title: 'Permission denied', clientResponse: { message: 'revoked' } });
  });

  it('revokes the session’s refresh tokens when they log out, and the provider’s sign-out still completes', async () => {
    const person = await createPerson(await testDb());
    const browser = new Browser(baseUrl());
    const web = await discover(baseUrl(), WEB_CLIENT);
    const tokens = await signInWithCode(browser, web, baseUrl(), person);
    const rotated = await refresh(tokens.refresh_token ?? '');
    expect(rotated.status).toBe(200);

    const logout = await request('/api/me/logout', { method: 'POST', headers: { Authorization: `Bearer ${rotated.body.access_token ?? ''}` } });
    expect(logout.status).toBe(200);
    const after = await refresh(rotated.body.refresh_token ?? '');
    expect(after.status).toBe(400);
    expect(after.body.error).toBe('invalid_grant');

    // The web app goes on to the provider's sign-out, which still ends at the app.
    const confirm = await browser.visit(oidc.buildEndSessionUrl(web, { id_token_hint: tokens.id_token ?? '', post_logout_redirect_uri: `${baseUrl()}/logout` }));
    expect(confirm.response.status).toBe(200);
    const done = await browser.visit('/v2/logout/confirm', { form: { xsrf: hiddenValue(confirm.html, 'xsrf'), logout: 'yes' } }, (next) => next.pathname === '/logout');
    expect(done.url.pathname).toBe('/logout');
  });

  it('says an expired or forged token is not accepted, with the reason', async () => {
    const forged = await request<ErrorBody>('/api/me', { headers: { Authorization: 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.' } });
    expect(forged.status).toBe(401);
    expect(forged.body.clientResponse).toEqual({ message: 'invalid' });
  });
});
