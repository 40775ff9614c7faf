import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import { replaceUserRoles, setFlag } from '../access/store.js';
import { insertUser } from '../access/usersStore.js';
import { insertCompany } from '../companies/service.js';
import { demoFlags } from '../access/flags.js';
import { newId } from '../db/ids.js';
import { hashPassword } from '../identity/passwords.js';
import { seedDemoPeople } from './people.js';

export const DEMO_COMPANY = {
  name: 'Acme Robotics',
  domains: ['acme.test'],
  currency: 'USD',
  /** $18.40 a share (preferred), $6.25 strike for new options, $1.2bn valuation. */
  sharePriceMicros: 18_400_000,
  exercisePriceMicros: 6_250_000,
  valuationMinor: 120_000_000_000,
} as const;

/** One sign-in per built-in role, an internal admin, and a candidate. */
export const DEMO_PEOPLE = [
  { email: 'admin@acme.test', firstName: 'Ada', lastName: 'Admin', role: 'admin' },
  { email: 'planner@acme.test', firstName: 'Priya', lastName: 'Planner', role: 'compensation_planner' },
  { email: 'manager@acme.test', firstName: 'Marco', lastName: 'Manager', role: 'people_manager' },
  { email: 'employee@acme.test', firstName: 'Emil', lastName: 'Employee', role: 'employee' },
  { email: 'analyst@acme.test', firstName: 'Ana', lastName: 'Analyst', role: 'analyst' },
  { email: 'support@paybench.test', firstName: 'Sam', lastName: 'Support', role: undefined, internalAdmin: true },
  { email: 'candidate@example.test', firstName: 'Cleo', lastName: 'Candidate', role: undefined, candidate: true },
] as const;

export interface DemoSignIn {
  emails: string[];
  password: string;
}

export interface DemoSeedResult {
  created: boolean;
  signIn: DemoSignIn | undefined;
}

const CREDENTIALS_FILE = 'demo-sign-in.json';

/** The demo password lives in a file only the server's user can read, so every start can print it. */
function readDemoSignIn(dataDir: string): DemoSignIn | undefined {
  try {
    return JSON.parse(readFileSync(path.join(dataDir, CREDENTIALS_FILE), 'utf8')) as DemoSignIn;
  } catch {
    return undefined;
  }
}

/**
 * On an empty database only: a demo company with a person for every built-in role, its people and
 * pay, and whatever each area declares as its part of the demo (`demo` in its `module.ts`).
 */
export async function seedDemoCompany(db: Knex, dataDir: string): Promise<DemoSeedResult> {
  // Loaded here, not at the top: the start-up thread seeds before any server has loaded the areas.
  const { apiModules } = await import('../modules.js');
  const existing = await db('companies').count<{ count: number | string }[]>({ count: '*' }).first();
  if (Number(existing?.count ?? 0) > 0) return { created: false, signIn: readDemoSignIn(dataDir) };
  const password = randomBytes(9).toString('base64url');
  const passwordHash = await hashPassword(password);
  await db.transaction(async (trx) => {
    const { id, roleIds } = await insertCompany(trx, { name: DEMO_COMPANY.name, domains: [...DEMO_COMPANY.domains], currency: DEMO_COMPANY.currency, isDemo: true });
    await trx('companies').where({ id }).update({
      share_price_micros: DEMO_COMPANY.sharePriceMicros,
      exercise_price_micros: DEMO_COMPANY.exercisePriceMicros,
      valuation_minor: DEMO_COMPANY.valuationMinor,
      enterprise_tags: JSON.stringify(['admin_saas_customers']),
    });
    // Every built module is on in the demo, with live updates: the flags the areas mark `demo`.
    for (const flag of demoFlags()) await setFlag(trx, { companyId: id }, flag, true, 'demo');
    let adminUserId: string | undefined;
    for (const person of DEMO_PEOPLE) {
      const userId = newId();
      await insertUser(trx, {
        id: userId,
        email: person.email,
        company_id: id,
        first_name: person.firstName,
        last_name: person.lastName,
        password_hash: passwordHash,
        email_verified: true,
        is_internal_admin: 'internalAdmin' in person,
        is_candidate: 'candidate' in person,
      });
      const roleId = person.role ? roleIds.get(person.role) : undefined;
      if (roleId) await replaceUserRoles(trx, { companyId: id }, userId, [roleId]);
      if (person.role === 'admin') adminUserId = userId;
    }
    await seedDemoPeople(trx, id);
    if (!adminUserId) throw new Error('The demo has no admin to own what the areas start.');
    const company = { companyId: id, adminUserId, domains: DEMO_COMPANY.domains };
    for (const module of apiModules) await module.demo?.(trx, company);
  });
  const signIn = { emails: DEMO_PEOPLE.map((person) => person.email), password };
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(path.join(dataDir, CREDENTIALS_FILE), JSON.stringify(signIn), { mode: 0o600 });
  return { created: true, signIn };
}
