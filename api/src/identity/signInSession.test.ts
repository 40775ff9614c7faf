import { describe, expect, it } from 'vitest';
import { testDb } from '../../test/factories.js';
import { type ErrorBody, baseUrl, request } from '../../test/http.js';
import type { components } from '../contract-types.js';
import { Browser, WEB_CLIENT, createPerson, discover, signInWithCode } from './provider/testSupport.js';

type Person = components['schemas']['Person'];

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

  it('says an expired or forged token is not accepted, with the reason', async () => {
    const forged = await request<ErrorBody>('/api/me', { headers: { Authorization: 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.' } });
    expect(forged.status).toBe(401);
    expect(forged.body.clientResponse).toEqual({ message: 'invalid' });
  });
});
