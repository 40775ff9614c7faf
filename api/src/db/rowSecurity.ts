import { createHash } from 'node:crypto';
import type { Knex } from 'knex';

/**
 * Row-level security on Postgres: the second lock behind the scoped stores.
 *
 * - A request of a caller with a company runs inside one transaction as the NOLOGIN role
 *   `paybench_app`, with `paybench.company_id` set for that transaction only (`asTenant`).
 * - Every table with a `company_id` column (and `companies`, by its `id`) has row security
 *   ENABLEd and FORCEd, with two permissive policies:
 *   `paybench_tenant` for `paybench_app`: only rows of the company set in the transaction;
 *   `paybench_system` for the connecting role: every row while no company is set (migrations,
 *   the job worker, internal tools, sign-in and token lookup before the company is known, the
 *   identity provider's storage), only that company's rows once one is set.
 * - `paybench_app` may read and write company-owned tables, read the shared reference tables
 *   (`SHARED_TABLES`), and nothing else: not the signing keys, the identity provider's storage,
 *   migrations, analytics or realtime payloads. A new table without `company_id` is closed to
 *   tenant requests until it is named here.
 * - The one fact that crosses companies inside a tenant transaction — whether an e-mail address
 *   already has an account — comes from a SECURITY DEFINER function (`emailsWithAccounts`).
 *
 * `applyRowSecurity` makes all of this true after migrations on every start, idempotently, for
 * whatever tables the migrations created. SQLite has none of it (one process, one file).
 */

/** The role tenant requests run as. Cluster-wide: every schema (and every install) on a server shares it. */
export const TENANT_ROLE = 'paybench_app';
/** The transaction-local setting the policies compare `company_id` with. */
export const COMPANY_SETTING = 'paybench.company_id';
/** Marks the policies this module manages, with a digest of their definition: a changed definition is replaced. */
const POLICY_MARK = 'paybench row security';
export const TENANT_POLICY = 'paybench_tenant';
export const SYSTEM_POLICY = 'paybench_system';
export const EMAIL_FUNCTION = 'paybench_emails_with_accounts';

/** Reference data every company reads (and none writes) in its requests. */
export const SHARED_TABLES: ReadonlySet<string> = new Set(['currencies', 'forex_rates', 'market_releases']);

// After a transaction-local set_config the setting reads '' (not null) for the rest of the session.
const CURRENT_COMPANY = `nullif(current_setting('${COMPANY_SETTING}', true), '')`;

const quote = (identifier: string): string => `"${identifier.replace(/"/g, '""')}"`;

type Privilege = 'SELECT' | 'INSERT' | 'UPDATE' | 'DELETE';
const ALL_PRIVILEGES: Privilege[] = ['SELECT', 'INSERT', 'UPDATE', 'DELETE'];

interface TableState {
  name: string;
  keyColumn: 'company_id' | 'id' | null;
  rowSecurity: boolean;
  forced: boolean;
  privileges: string[];
}

interface PolicyState {
  table: string;
  name: string;
  roles: string[];
  comment: string | null;
}

/** What `paybench_app` may do to a table, by what the table is. */
export function privilegesFor(table: { name: string; keyColumn: TableState['keyColumn'] }): Privilege[] {
  if (table.keyColumn === 'company_id') return ALL_PRIVILEGES;
  // A company changes its own settings; companies are created and removed outside any company.
  if (table.keyColumn === 'id') return ['SELECT', 'UPDATE'];
  return SHARED_TABLES.has(table.name) ? ['SELECT'] : [];
}

function policyStatement(table: TableState, policy: 'tenant' | 'system', role: string): string {
  const key = quote(table.keyColumn ?? 'company_id');
  const own = `${key} = ${CURRENT_COMPANY}`;
  const check = policy === 'tenant' ? own : `${CURRENT_COMPANY} is null or ${own}`;
  const name = policy === 'tenant' ? TENANT_POLICY : SYSTEM_POLICY;
  return `create policy ${name} on ${quote(table.name)} as permissive for all to ${quote(role)} using (${check}) with check (${check})`;
}

const EMAIL_FUNCTION_BODY = (schema: string): string => `
declare
  company text := current_setting('${COMPANY_SETTING}', true);
begin
  -- Uniqueness is across companies; only the owner's unscoped view can answer it, and only this.
  perform set_config('${COMPANY_SETTING}', '', true);
  return query select u.email::text from ${quote(schema)}.users u where u.email = any(candidates);
  perform set_config('${COMPANY_SETTING}', coalesce(company, ''), true);
end`;

async function ensureRole(trx: Knex.Transaction, role: string): Promise<void> {
  // Two installs (or two test runs) may start at once: whoever loses the race finds the role made.
  await trx.raw(`
    do $$
    begin
      if not exists (select 1 from pg_roles where rolname = '${role}') then
        begin
          create role ${quote(role)} nologin;
        exception when duplicate_object or unique_violation then null;
        end;
      end if;
      if not pg_has_role(current_user, '${role}', 'member') then
        begin
          execute format('grant %I to %I', '${role}', current_user);
        exception when duplicate_object or unique_violation then null;
        end;
      end if;
    end
    $$`);
}

async function readTables(trx: Knex.Transaction, role: string): Promise<TableState[]> {
  const result = await trx.raw<{ rows: { name: string; has_company_id: boolean; rowsecurity: boolean; forced: boolean; privileges: string[] | null }[] }>(
    `select c.relname as name,
            exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'company_id' and not a.attisdropped) as has_company_id,
            c.relrowsecurity as rowsecurity,
            c.relforcerowsecurity as forced,
            array(select acl.privilege_type from aclexplode(c.relacl) acl join pg_roles r on r.oid = acl.grantee where r.rolname = ?) as privileges
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind in ('r', 'p')
      order by c.relname`,
    [role],
  );
  return result.rows.map((row) => ({
    name: row.name,
    keyColumn: row.has_company_id ? 'company_id' : row.name === 'companies' ? 'id' : null,
    rowSecurity: row.rowsecurity,
    forced: row.forced,
    privileges: row.privileges ?? [],
  }));
}

async function readPolicies(trx: Knex.Transaction): Promise<PolicyState[]> {
  const result = await trx.raw<{ rows: PolicyState[] }>(
    `select c.relname as "table", p.polname as name,
            array(select r.rolname::text from pg_roles r where r.oid = any(p.polroles)) as roles,
            obj_description(p.oid, 'pg_policy') as comment
       from pg_policy p join pg_class c on c.oid = p.polrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema()`,
  );
  return result.rows;
}

async function ensurePolicies(trx: Knex.Transaction, table: TableState, existing: PolicyState[], tenant: string, owner: string): Promise<void> {
  for (const [policy, name, role] of [['tenant', TENANT_POLICY, tenant], ['system', SYSTEM_POLICY, owner]] as const) {
    const statement = policyStatement(table, policy, role);
    const mark = `${POLICY_MARK} ${createHash('sha256').update(statement).digest('hex').slice(0, 16)}`;
    const current = existing.find((p) => p.table === table.name && p.name === name);
    if (current?.comment === mark) continue;
    if (current) await trx.raw(`drop policy ${name} on ${quote(table.name)}`);
    await trx.raw(statement);
    await trx.raw(`comment on policy ${name} on ${quote(table.name)} is '${mark}'`);
  }
  if (!table.rowSecurity) await trx.raw(`alter table ${quote(table.name)} enable row level security`);
  if (!table.forced) await trx.raw(`alter table ${quote(table.name)} force row level security`);
}

async function ensureGrants(trx: Knex.Transaction, table: TableState, role: string): Promise<void> {
  const wanted = privilegesFor(table);
  const extra = table.privileges.filter((p) => !wanted.includes(p as Privilege));
  const missing = wanted.filter((p) => !table.privileges.includes(p));
  if (extra.length) await trx.raw(`revoke ${extra.join(', ')} on ${quote(table.name)} from ${quote(role)}`);
  if (missing.length) await trx.raw(`grant ${missing.join(', ')} on ${quote(table.name)} to ${quote(role)}`);
}

async function ensureEmailFunction(trx: Knex.Transaction, schema: string, role: string): Promise<void> {
  const body = EMAIL_FUNCTION_BODY(schema);
  const found = await trx.raw<{ rows: { src: string }[] }>(
    `select p.prosrc as src from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = current_schema() and p.proname = ?`,
    [EMAIL_FUNCTION],
  );
  if (found.rows[0]?.src === body) return;
  await trx.raw(
    `create or replace function ${quote(schema)}.${EMAIL_FUNCTION}(candidates text[]) returns setof text
       language plpgsql volatile security definer set search_path = pg_catalog, pg_temp as $fn$${body}$fn$`,
  );
  await trx.raw(`revoke all on function ${quote(schema)}.${EMAIL_FUNCTION}(text[]) from public`);
  await trx.raw(`grant execute on function ${quote(schema)}.${EMAIL_FUNCTION}(text[]) to ${quote(role)}`);
}

/** The advice when the connecting role may neither create the tenant role nor join it. */
function roleAdvice(error: unknown, role: string): Error {
  const code = (error as { code?: string }).code;
  if (code !== '42501') return error as Error;
  return new Error(
    `Row-level security needs the role ${role}, which this database user may not create or join. ` +
      `As a superuser run: CREATE ROLE ${role} NOLOGIN; GRANT ${role} TO <this user>;`,
    { cause: error },
  );
}

/**
 * Postgres: the tenant role, its grants, the policies on every company-owned table. A no-op on
 * SQLite. `role` is for tests that must not share the real one.
 */
export async function applyRowSecurity(db: Knex, role = TENANT_ROLE): Promise<void> {
  if (db.client.config.client !== 'pg') return;
  try {
    await db.transaction(async (trx) => {
      // Nodes of one install starting together take turns; the second finds everything in place and
      // changes nothing. Installs in other schemas go ahead at once: the role is theirs to race for.
      await trx.raw(`select pg_advisory_xact_lock(hashtext('paybench row security ' || current_schema()))`);
      await ensureRole(trx, role);
      const { rows } = await trx.raw<{ rows: { schema: string; owner: string; usable: boolean }[] }>(
        `select current_schema() as schema, current_user as owner, has_schema_privilege(?, current_schema(), 'USAGE') as usable`,
        [role],
      );
      const { schema, owner, usable } = rows[0] ?? { schema: 'public', owner: '', usable: false };
      if (!usable) await trx.raw(`grant usage on schema ${quote(schema)} to ${quote(role)}`);
      const tables = await readTables(trx, role);
      const policies = await readPolicies(trx);
      for (const table of tables) {
        // Policies first, then privileges: a table is never readable by the tenant role without its policy.
        if (table.keyColumn) await ensurePolicies(trx, table, policies, role, owner);
        await ensureGrants(trx, table, role);
      }
      await ensureEmailFunction(trx, schema, role);
    });
  } catch (error) {
    throw roleAdvice(error, role);
  }
}

/** Connections of the pool a tenant transaction may not take: left for the work a handler does beside it. */
const RESERVED_CONNECTIONS = 2;

/** A counting semaphore: at most `limit` holders at once, the rest wait their turn in order. */
class Gate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active < this.limit) this.active += 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active -= 1;
    }
  }
}

const gates = new WeakMap<Knex, Gate>();

/**
 * A tenant transaction holds a pooled connection for its whole request, and a handler may need a
 * second one beside it (enqueueing a job, sending mail). Were every connection held by a transaction
 * waiting for a second, none would ever come: so a few connections are always left free.
 */
function gateOf(db: Knex): Gate {
  let gate = gates.get(db);
  if (!gate) {
    const poolMax = Number((db.client.config as { pool?: { max?: number } }).pool?.max ?? 10);
    gate = new Gate(Math.max(1, poolMax - RESERVED_CONNECTIONS));
    gates.set(db, gate);
  }
  return gate;
}

interface TransactionInternals {
  begin(connection: unknown): unknown;
  query(connection: unknown, sql: string): unknown;
}

/** A transaction's settings: with `tenantCompany`, it begins as that company's tenant. */
type TenantTransactionConfig = Knex.TransactionConfig & { tenantCompany?: string };

// Company ids are UUIDs; only such an id is ever written into SQL as a literal.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The statement that makes a transaction the company's tenant, bound (for any id) or as literals (a UUID). */
const TENANT_SETTINGS = `select set_config('role', ?, true), set_config(?, ?, true)`;
const tenantSettingsLiteral = (companyId: string): string => `select set_config('role', '${TENANT_ROLE}', true), set_config('${COMPANY_SETTING}', '${companyId}', true)`;

const beginsAsTenant = new WeakSet<object>();

/**
 * A tenant transaction sends BEGIN and its settings in one message (one round trip instead of two,
 * on every request of a company's caller). A message of several statements cannot carry bound
 * parameters, so the settings go as literals: the role and setting names are constants and the
 * company id is a checked UUID (any other id takes the bound path). knex has no option for it.
 */
function beginAsTenant(db: Knex): void {
  const client = db.client as { transaction: (...args: unknown[]) => TransactionInternals };
  if (beginsAsTenant.has(client)) return;
  beginsAsTenant.add(client);
  const create = client.transaction.bind(client);
  client.transaction = (...args: unknown[]) => {
    const transaction = create(...args);
    const companyId = (args[1] as TenantTransactionConfig | undefined)?.tenantCompany;
    if (companyId !== undefined && UUID.test(companyId)) {
      transaction.begin = (connection) => transaction.query(connection, `BEGIN; ${tenantSettingsLiteral(companyId)};`);
    }
    return transaction;
  };
}

/**
 * Runs `work` in one transaction as the tenant role with the company set, so every query in it sees
 * that company's rows only. Nested `transaction()` calls on it become savepoints.
 */
export async function asTenant<T>(db: Knex, companyId: string, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  beginAsTenant(db);
  const config: TenantTransactionConfig = { tenantCompany: companyId };
  return gateOf(db).run(() =>
    db.transaction(async (trx) => {
      if (!UUID.test(companyId)) await trx.raw(TENANT_SETTINGS, [TENANT_ROLE, COMPANY_SETTING, companyId]);
      return work(trx);
    }, config),
  );
}

/**
 * Which of these e-mail addresses already have an account, in any company. Inside a tenant
 * transaction the users of other companies are invisible, but e-mail addresses are unique across
 * companies: this answers exactly that and nothing else.
 */
export async function emailsWithAccounts(db: Knex, emails: string[]): Promise<Set<string>> {
  if (!emails.length) return new Set();
  if (db.client.config.client !== 'pg') {
    const rows = await db('users').whereIn('email', emails).select<{ email: string }[]>('email');
    return new Set(rows.map((row) => row.email));
  }
  const result = await db.raw<{ rows: { email: string }[] }>(`select email from ${EMAIL_FUNCTION}(?::text[]) as email`, [emails]);
  return new Set(result.rows.map((row) => row.email));
}
