import knexFactory, { type Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../contract-types.js';
import { testDatabaseUrl } from '../../test/env.js';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, request } from '../../test/http.js';
import { startTestServer } from '../../test/server.js';
import { SHARED_TABLES, SYSTEM_POLICY, TENANT_POLICY, TENANT_ROLE, applyRowSecurity, asTenant } from './rowSecurity.js';

// Postgres only (vitest.config.ts leaves `*.postgres.test.ts` out of the SQLite pass): row-level
// security as the database itself enforces it, below every store.

const url = testDatabaseUrl ?? '';
const unique = (): string => Math.random().toString(36).slice(2, 10);

function connect(schema: string, user?: string): Knex {
  const connection = new URL(url);
  if (user) connection.username = user;
  return knexFactory({ client: 'pg', connection: connection.toString(), searchPath: [schema], pool: { min: 0, max: 4 } });
}

interface TableRow {
  name: string;
  enabled: boolean;
  forced: boolean;
  has_company_id: boolean;
}

async function tablesOf(db: Knex): Promise<TableRow[]> {
  const { rows } = await db.raw<{ rows: TableRow[] }>(
    `select c.relname as name, c.relrowsecurity as enabled, c.relforcerowsecurity as forced,
            exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'company_id' and not a.attisdropped) as has_company_id
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind in ('r', 'p') order by 1`,
  );
  return rows;
}

async function policiesOf(db: Knex): Promise<{ table: string; name: string; roles: string[]; oid: number }[]> {
  const { rows } = await db.raw<{ rows: { table: string; name: string; roles: string[]; oid: number }[] }>(
    `select c.relname as "table", p.polname as name, p.oid::int as oid,
            array(select r.rolname::text from pg_roles r where r.oid = any(p.polroles) order by 1) as roles
       from pg_policy p join pg_class c on c.oid = p.polrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() order by 1, 2`,
  );
  return rows;
}

const refusal = (work: Promise<unknown>) => work.then(() => 'accepted', (error: Error) => error.message);

describe('row-level security on the running schema', () => {
  let db: Knex;
  let a: TestCompany;
  let b: TestCompany;
  let connecting: string;

  beforeAll(async () => {
    db = await testDb();
    a = await createTestCompany(db, 'Wall A');
    b = await createTestCompany(db, 'Wall B');
    connecting = ((await db.raw<{ rows: { name: string }[] }>('select current_user as name')).rows[0] as { name: string }).name;
  });

  it('is forced on every table with a company_id, each with exactly the tenant and system policies', async () => {
    const tables = await tablesOf(db);
    const owned = tables.filter((t) => t.has_company_id || t.name === 'companies');
    expect(owned.map((t) => t.name)).toEqual(
      expect.arrayContaining(['companies', 'users', 'roles', 'user_roles', 'api_tokens', 'jobs', 'downloads', 'audit_events', 'employees', 'compensation_records', 'equity_grants', 'candidates', 'company_exchange_rates', 'account_invitations']),
    );
    for (const table of owned) expect({ table: table.name, enabled: table.enabled, forced: table.forced }).toEqual({ table: table.name, enabled: true, forced: true });
    const policies = await policiesOf(db);
    for (const table of owned) {
      expect(policies.filter((p) => p.table === table.name).map(({ name, roles }) => ({ name, roles }))).toEqual([
        { name: SYSTEM_POLICY, roles: [connecting] },
        { name: TENANT_POLICY, roles: [TENANT_ROLE] },
      ]);
    }
    // Nothing else carries a policy: a stray permissive one would widen what a company sees.
    expect(policies.filter((p) => !owned.some((t) => t.name === p.table))).toEqual([]);
  });

  it('lets the tenant role write company tables, read the shared ones, and touch nothing else', async () => {
    const { rows } = await db.raw<{ rows: { name: string; has_company_id: boolean; s: boolean; i: boolean; u: boolean; d: boolean }[] }>(
      `select c.relname as name,
              exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'company_id' and not a.attisdropped) as has_company_id,
              has_table_privilege(?, c.oid, 'SELECT') as s, has_table_privilege(?, c.oid, 'INSERT') as i,
              has_table_privilege(?, c.oid, 'UPDATE') as u, has_table_privilege(?, c.oid, 'DELETE') as d
         from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = current_schema() and c.relkind = 'r'`,
      [TENANT_ROLE, TENANT_ROLE, TENANT_ROLE, TENANT_ROLE],
    );
    for (const row of rows) {
      const expected = row.has_company_id ? 'SIUD' : row.name === 'companies' ? 'SU' : SHARED_TABLES.has(row.name) ? 'S' : '';
      const actual = `${row.s ? 'S' : ''}${row.i ? 'I' : ''}${row.u ? 'U' : ''}${row.d ? 'D' : ''}`;
      expect(`${row.name}: ${actual}`).toBe(`${row.name}: ${expected}`);
    }
    for (const system of ['app_meta', 'oidc_models', 'knex_migrations', 'sign_in_throttle']) expect(rows.find((r) => r.name === system)).toBeDefined();
  });

  it("shows a company's transaction only its own rows, and refuses writing another company's", async () => {
    const bRole = await db('roles').where({ company_id: b.id, key: 'employee' }).first<{ id: string }>();
    await asTenant(db, a.id, async (trx) => {
      const who = await trx.raw<{ rows: { role: string }[] }>('select current_user as role');
      expect(who.rows[0]?.role).toBe(TENANT_ROLE);
      expect(await trx('roles').where({ company_id: b.id })).toEqual([]);
      expect(await trx('roles').where({ id: bRole.id })).toEqual([]);
      const roles = await trx('roles').select('company_id');
      expect(roles.length).toBe(5);
      expect(new Set(roles.map((r: { company_id: string }) => r.company_id))).toEqual(new Set([a.id]));
      expect((await trx('companies').select('id')).map((c: { id: string }) => c.id)).toEqual([a.id]);
      const people = await trx('users').select('email');
      expect(people.map((p: { email: string }) => p.email).sort()).toEqual(Object.values(a.users).map((u) => u.email).sort());

      // Each refused statement in a savepoint of its own, so the transaction goes on.
      const now = new Date().toISOString();
      const row = { id: `role-${unique()}`, key: `k_${unique()}`, name: 'Smuggled', description: '', is_builtin: false, permissions: '{}', version: 1, created_at: now, updated_at: now };
      expect(await refusal(trx.transaction((s) => s('roles').insert({ ...row, company_id: b.id })))).toMatch(/row-level security/);
      const aRole = (await trx('roles').where({ key: 'analyst' }).first<{ id: string }>()) as { id: string };
      expect(await refusal(trx.transaction((s) => s('roles').where({ id: aRole.id }).update({ company_id: b.id })))).toMatch(/row-level security/);
      expect(await trx('roles').where({ id: bRole.id }).update({ name: 'Hijacked' })).toBe(0);
      expect(await trx('user_roles').where({ company_id: b.id }).delete()).toBe(0);
      expect(await refusal(trx.transaction((s) => s('app_meta').select('key')))).toMatch(/permission denied/);
      expect(await refusal(trx.transaction((s) => s('currencies').update({ name: 'Changed' })))).toMatch(/permission denied/);
      expect(await refusal(trx.transaction((s) => s('companies').insert({ id: `c-${unique()}`, key: `k-${unique()}`, name: 'New', domains: '[]', currency: 'USD', created_at: now, updated_at: now })))).toMatch(/permission denied/);
      expect((await trx('currencies').where({ code: 'USD' }).first<{ code: string }>())?.code).toBe('USD');
    });
    expect((await db('roles').where({ id: bRole.id }).first<{ name: string }>())?.name).not.toBe('Hijacked');
    expect(await db('user_roles').where({ company_id: b.id }).count<{ count: string }[]>({ count: '*' })).not.toEqual([{ count: 0 }]);
  });

  it('begins a tenant transaction and sets its company in one message, and binds an id that is not a UUID', async () => {
    const sent: string[] = [];
    const listen = (query: { sql: string }): void => void sent.push(query.sql);
    db.on('query', listen);
    try {
      await asTenant(db, a.id, async (trx) => {
        const { rows } = await trx.raw<{ rows: { role: string; company: string }[] }>(`select current_user as role, current_setting('paybench.company_id') as company`);
        expect(rows[0]).toEqual({ role: TENANT_ROLE, company: a.id });
      });
    } finally {
      db.off('query', listen);
    }
    expect(sent).toEqual([
      `BEGIN; select set_config('role', 'paybench_app', true), set_config('paybench.company_id', '${a.id}', true);`,
      `select current_user as role, current_setting('paybench.company_id') as company`,
      'COMMIT;',
    ]);
    // Anything else goes as a bound value, never into the statement: it names no company.
    const odd = `${a.id}' or '1' = '1`;
    await asTenant(db, odd, async (trx) => {
      const { rows } = await trx.raw<{ rows: { company: string }[] }>(`select current_setting('paybench.company_id') as company`);
      expect(rows[0]?.company).toBe(odd);
      expect(await trx('roles').select('id')).toEqual([]);
    });
  });

  it('leaves neither the role nor the company behind on the connection', async () => {
    await asTenant(db, a.id, async () => undefined);
    for (let i = 0; i < 4; i++) {
      const { rows } = await db.raw<{ rows: { role: string; company: string }[] }>(`select current_user as role, coalesce(current_setting('paybench.company_id', true), '') as company`);
      expect(rows[0]).toEqual({ role: connecting, company: '' });
    }
  });

  it('changes nothing when applied again', async () => {
    const snapshot = async () => ({
      policies: await policiesOf(db),
      tables: await tablesOf(db),
      acl: (await db.raw<{ rows: unknown[] }>(`select c.relname, c.relacl::text from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = current_schema() order by 1`)).rows,
      fn: (await db.raw<{ rows: unknown[] }>(`select p.oid::int, p.proacl::text from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = current_schema()`)).rows,
    });
    const before = await snapshot();
    await applyRowSecurity(db);
    expect(await snapshot()).toEqual(before);
  });
});

describe('applying row security', () => {
  it('is safe when installs in several schemas create the same new role at once, and mends what drifted', async () => {
    const role = `pb_rls_race_${unique()}`;
    const schemas = [0, 1, 2, 3].map((n) => `pb_rls_race_${unique()}_${n}`);
    const admin = knexFactory({ client: 'pg', connection: url });
    const dbs = schemas.map((schema) => connect(schema));
    try {
      for (const [index, schema] of schemas.entries()) {
        await admin.raw('create schema ??', [schema]);
        const db = dbs[index] as Knex;
        await db.schema.createTable('companies', (t) => t.string('id').primary());
        await db.schema.createTable('users', (t) => {
          t.string('id').primary();
          t.string('company_id').nullable();
          t.string('email').unique();
        });
        await db.schema.createTable('notes', (t) => t.string('company_id').notNullable());
        await db.schema.createTable('secrets', (t) => t.string('key'));
      }
      const results = await Promise.allSettled(dbs.map((db) => applyRowSecurity(db, role)));
      expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toEqual(['ok', 'ok', 'ok', 'ok']);
      for (const db of dbs) {
        const policies = await policiesOf(db);
        expect(policies.filter((p) => p.table === 'notes').map((p) => p.roles)).toEqual([[(await db.raw<{ rows: { u: string }[] }>('select current_user as u')).rows[0]?.u], [role]]);
        expect((await tablesOf(db)).filter((t) => t.enabled && t.forced).map((t) => t.name)).toEqual(['companies', 'notes', 'users']);
      }
      // A policy from an older definition, a dropped one, row security switched off: the next start mends them.
      const db = dbs[0] as Knex;
      const before = await policiesOf(db);
      await db.raw(`comment on policy ${TENANT_POLICY} on notes is 'paybench row security 0000000000000000'`);
      await db.raw(`drop policy ${SYSTEM_POLICY} on users`);
      await db.raw('alter table companies no force row level security');
      await applyRowSecurity(db, role);
      const after = await policiesOf(db);
      expect(after.map(({ table, name, roles }) => ({ table, name, roles }))).toEqual(before.map(({ table, name, roles }) => ({ table, name, roles })));
      expect(after.find((p) => p.table === 'notes' && p.name === TENANT_POLICY)?.oid).not.toBe(before.find((p) => p.table === 'notes' && p.name === TENANT_POLICY)?.oid);
      expect((await tablesOf(db)).find((t) => t.name === 'companies')).toMatchObject({ enabled: true, forced: true });
    } finally {
      await Promise.all(dbs.map((db) => db.destroy()));
      for (const schema of schemas) await admin.raw('drop schema if exists ?? cascade', [schema]);
      await admin.raw(`drop role if exists ${role}`);
      await admin.destroy();
    }
  });
});

describe('with a connecting role that is not a superuser', () => {
  const owner = `pb_rls_owner_${unique()}`;
  const schema = `pb_rls_owner_${unique()}`;
  const database = new URL(url).pathname.slice(1);
  let root: Knex;
  let arrange: Knex;
  let server: Awaited<ReturnType<typeof startTestServer>> | undefined;
  let a: TestCompany;
  let b: TestCompany;
  let support: TestUser;

  beforeAll(async () => {
    root = knexFactory({ client: 'pg', connection: url });
    // Like a managed database's main user: owns its schema, may create roles, bypasses nothing.
    await root.raw(`create role ${owner} login createrole`);
    await root.raw(`grant create on database ?? to ${owner}`, [database]);
    await root.raw(`create schema ?? authorization ${owner}`, [schema]);
    const ownerUrl = new URL(url);
    ownerUrl.username = owner;
    server = await startTestServer({ DATABASE_URL: ownerUrl.toString(), PAYBENCH_DATABASE_SCHEMA: schema, PAYBENCH_SEED_DEMO: 'false', PAYBENCH_DEMO_MARKET_RECORDS: '1000' });
    arrange = connect(schema);
    a = await createTestCompany(arrange, 'Owner A');
    b = await createTestCompany(arrange, 'Owner B');
    support = await createTestUser(arrange, { companyId: null, internalAdmin: true });
  });

  afterAll(async () => {
    await arrange?.destroy();
    await server?.stop();
    await root.raw(`drop schema if exists ?? cascade`, [schema]);
    await root.raw(`drop owned by ${owner}`);
    await root.raw(`drop role if exists ${owner}`);
    await root.destroy();
  });

  it('runs requests under the policies, and the system paths (internal tools, jobs, invitations) still see what they need', async () => {
    const base = server?.url ?? '';
    const admin = a.users.admin as TestUser;
    const users = await request<{ data: { email: string }[] }>('/api/users?limit=500', { base, headers: bearer(admin) });
    expect(users.status).toBe(200);
    expect(users.body.data.map((u) => u.email).sort()).toEqual(Object.values(a.users).map((u) => u.email).sort());

    const role = await request<{ data: { key: string } }>('/api/roles', { base, method: 'POST', headers: bearer(admin), json: { name: 'Reviewer', permissions: { users: [{ authority: 'view', scope: 'all' }] } } });
    expect(role.status).toBe(200);

    const companies = await request<{ data: { companyId: string }[] }>('/api/internal/companies', { base, headers: bearer(support) });
    expect(companies.body.data.map((c) => c.companyId)).toEqual(expect.arrayContaining([a.id, b.id]));

    const taken = await request<ErrorBody>('/api/accounts/provision', { base, method: 'POST', headers: bearer(admin), json: { email: (b.users.employee as TestUser).email, firstName: 'T', lastName: 'Aken' } });
    expect(taken.status).toBe(409);
    const provisioned = await request<{ data: components['schemas']['ProvisionedAccount'] }>('/api/accounts/provision', { base, method: 'POST', headers: bearer(admin), json: { email: `fresh-${unique()}@owner.test`, firstName: 'F', lastName: 'Resh' } });
    expect(provisioned.status).toBe(201);
    const outbox = await request<{ data: { text: string }[] }>(`/api/internal/outbox?to=${encodeURIComponent(provisioned.body.data.user.email)}`, { base, headers: bearer(support) });
    const link = /\/invitation\/\S+/.exec(outbox.body.data[0]?.text ?? '')?.[0] ?? '/invitation/missing';
    const page = await fetch(`${base}${link}`);
    expect(page.status).toBe(200);

    const job = await request<{ data: { id: string } }>('/api/users/exports', { base, method: 'POST', headers: bearer(admin) });
    expect(job.status).toBe(202);
    let state: components['schemas']['BackgroundJob'] | undefined;
    for (let tries = 0; tries < 120 && state?.status !== 'succeeded' && state?.status !== 'failed'; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      state = (await request<{ data: components['schemas']['BackgroundJob'] }>(`/api/background-jobs/${job.body.data.id}`, { base, headers: bearer(admin) })).body.data;
    }
    expect(state?.status).toBe('succeeded');
    const file = await request<string>(`/api/downloads/${state?.downloadId ?? ''}`, { base, headers: bearer(admin) });
    expect(file.status).toBe(200);
    expect(file.body).toContain(admin.email);
    expect(file.body).not.toContain((b.users.admin as TestUser).email);
  });

  it('narrows even the connecting role to one company once a company is set, and shows it every row only outside one', async () => {
    const asOwner = connect(schema, owner);
    try {
      const everyone = (await asOwner('users').select('company_id')).map((u: { company_id: string | null }) => u.company_id);
      expect(everyone).toEqual(expect.arrayContaining([a.id, b.id, null]));
      const narrowed = await asOwner.transaction(async (trx) => {
        await trx.raw(`select set_config('paybench.company_id', ?, true)`, [a.id]);
        return (await trx('users').select('company_id')).map((u: { company_id: string | null }) => u.company_id);
      });
      expect(new Set(narrowed)).toEqual(new Set([a.id]));
      const tenant = await asTenant(asOwner, b.id, async (trx) => (await trx('users').select('company_id')).map((u: { company_id: string | null }) => u.company_id));
      expect(new Set(tenant)).toEqual(new Set([b.id]));
    } finally {
      await asOwner.destroy();
    }
  });
});
