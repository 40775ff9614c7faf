import type { Knex } from 'knex';
import type { components } from '../../openapi.d.ts';
import { type TestPerson, createAdmin } from '../../api/src/identity/provider/testSupport.js';
import { testDb } from '../../api/test/factories.js';
import { type Reply, request } from '../../api/test/http.js';
import { apiTokenOf } from './browser.js';
import { switchOn } from './companySetup.js';

type Schemas = components['schemas'];

export interface BandsAdmin {
  db: Knex;
  /** The admin of a company of its own, with a password to sign in with. */
  admin: TestPerson;
  /** A call to the shared test server's API as the admin. */
  api: <T>(path: string, init?: { method?: string; json?: unknown }) => Promise<Reply<{ data: T } & Partial<Schemas['Error']>>>;
}

/** A company of its own on the shared test server with salary bands switched on, and its admin. */
export async function bandsAdmin(): Promise<BandsAdmin> {
  const db = await testDb();
  const admin = await createAdmin(db);
  const token = await apiTokenOf(admin.email);
  const api = <T>(path: string, init: { method?: string; json?: unknown } = {}) =>
    request<{ data: T } & Partial<Schemas['Error']>>(path, { method: init.method ?? 'GET', headers: { Authorization: `Bearer ${token}` }, json: init.json });
  await switchOn(db, admin.companyId, ['bands']);
  return { db, admin, api };
}
