import type { Knex } from 'knex';
import { seedBuiltinRoles } from '../access/builtinRoles.js';
import { type Caller, type CompanyScope, companyScope } from '../access/caller.js';
import { replaceUserRoles } from '../access/store.js';
import { type CompanyRow, findCompany, findCompanyByKey, updateUser } from '../access/usersStore.js';
import { emit } from '../platform/events.js';
import type { components } from '../contract-types.js';
import { requireMinorUnit } from '../money/minorUnits.js';
import { newId } from '../db/ids.js';
import { HttpError, badRequest, notFound } from '../kernel/errors.js';
import { findStockExchange } from '../reference/stockExchanges.js';
import type { RequestContext, ServiceContext } from '../kernel/operations.js';
import { updateAtVersion, versionOf } from '../kernel/versions.js';
import { provisionAccount } from '../identity/accounts.js';
import { presentOnboarding, withCompletedStep } from '../kernel/onboarding.js';
import { presentCompany, presentSettings, priceToMicros } from './present.js';

type SettingsInput = components['schemas']['CompanySettingsInput'];

export const COMPANY_ONBOARDING_STEPS = ['company', 'currency', 'invite_team', 'import_people', 'connect_hris'] as const;

/** A listing is one of the shipped ISO 10383 exchanges, by MIC, or none. */
function stockExchangeOf(mic: string | null): string | null {
  if (mic === null) return null;
  if (!findStockExchange(mic)) throw badRequest(`${mic} is not a stock exchange Paybench knows; pick one from the list.`, [{ field: 'body.stockExchange', message: 'is not a known stock exchange (ISO 10383 MIC)' }]);
  return mic;
}

/** A company's currency is given in `body.currency` wherever it can be set. */
const minorUnitOf = (db: Knex, currency: string): Promise<number> => requireMinorUnit(db, currency, 'body.currency');

async function requireCompany(db: Knex, scope: CompanyScope): Promise<CompanyRow> {
  const company = await findCompany(db, scope);
  if (!company) throw notFound();
  return company;
}

export async function getCompany(ctx: Pick<ServiceContext, 'db' | 'caller'>) {
  const { db, caller } = ctx;
  const company = await requireCompany(db, companyScope(caller));
  return presentCompany(company, await minorUnitOf(db, company.currency));
}

export async function getSettings(ctx: Pick<ServiceContext, 'db' | 'caller'>) {
  const { db, caller } = ctx;
  const company = await requireCompany(db, companyScope(caller));
  return presentSettings(company, await minorUnitOf(db, company.currency));
}

export async function updateSettings(ctx: Pick<ServiceContext, 'db' | 'caller'>, ifMatch: string, input: SettingsInput) {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const version = versionOf(ifMatch);
  return db.transaction(async (trx) => {
    const company = await requireCompany(trx, scope);
    const oldMinor = await minorUnitOf(trx, company.currency);
    const currency = input.currency ?? company.currency;
    const minor = await minorUnitOf(trx, currency);
    const valuationMajor =
      input.valuation !== undefined ? input.valuation : company.valuation_minor === null ? null : Number(company.valuation_minor) / 10 ** oldMinor;
    const changes = {
      currency,
      share_price_micros: input.sharePrice !== undefined ? priceToMicros(input.sharePrice) : company.share_price_micros,
      exercise_price_micros:
        input.exercisePrice !== undefined ? (input.exercisePrice === null ? null : priceToMicros(input.exercisePrice)) : company.exercise_price_micros,
      valuation_minor: valuationMajor === null ? null : Math.round(valuationMajor * 10 ** minor),
      stock_exchange_mic: input.stockExchange !== undefined ? stockExchangeOf(input.stockExchange) : (company.stock_exchange_mic ?? null),
      updated_at: new Date().toISOString(),
    };
    const next = await updateAtVersion(() => trx('companies').where({ id: scope.companyId }), version, changes, 'these settings');
    await emit(trx, { companyId: scope.companyId, actorUserId: caller.userId, name: 'company.settings.updated', payload: { from: presentSettings(company, oldMinor), to: input } });
    return presentSettings({ ...company, ...changes, version: next }, minor);
  });
}

export async function enterpriseTags(ctx: Pick<ServiceContext, 'db' | 'caller'>): Promise<string[]> {
  const { db, caller } = ctx;
  const company = await requireCompany(db, companyScope(caller));
  return JSON.parse(company.enterprise_tags) as string[];
}

export async function companyOnboarding(ctx: Pick<ServiceContext, 'db' | 'caller'>) {
  const { db, caller } = ctx;
  const company = await requireCompany(db, companyScope(caller));
  return presentOnboarding(company.onboarding, COMPANY_ONBOARDING_STEPS);
}

export async function completeCompanyStep(ctx: Pick<ServiceContext, 'db' | 'caller'>, step: string) {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const company = await requireCompany(db, scope);
  const onboarding = withCompletedStep(company.onboarding, step);
  await db('companies').where({ id: scope.companyId }).update({ onboarding });
  return presentOnboarding(onboarding, COMPANY_ONBOARDING_STEPS);
}

const slug = (name: string): string =>
  name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'company';

async function uniqueKey(db: Knex, name: string): Promise<string> {
  const base = slug(name);
  for (let attempt = 0; ; attempt += 1) {
    const key = attempt === 0 ? base : `${base}-${attempt + 1}`;
    if (!(await findCompanyByKey(db, key))) return key;
  }
}

export interface NewCompany {
  name: string;
  domains?: string[];
  currency?: string;
  isDemo?: boolean;
}

export async function insertCompany(db: Knex, input: NewCompany): Promise<{ id: string; roleIds: Map<string, string> }> {
  const now = new Date().toISOString();
  const id = newId();
  await db('companies').insert({
    id,
    key: await uniqueKey(db, input.name),
    name: input.name.trim(),
    domains: JSON.stringify(input.domains ?? []),
    currency: input.currency ?? 'USD',
    share_price_micros: 0,
    exercise_price_micros: null,
    valuation_minor: null,
    is_demo: input.isDemo ?? false,
    created_at: now,
    updated_at: now,
  });
  return { id, roleIds: await seedBuiltinRoles(db, id) };
}

/** The person who creates a company becomes its first admin. */
export async function createCompany(ctx: Pick<ServiceContext, 'db' | 'caller'>, input: components['schemas']['CompanyInput']) {
  const { db, caller } = ctx;
  if (caller.companyId) throw new HttpError(409, 'already_member', { message: 'You already belong to a company.' });
  if (input.currency) await minorUnitOf(db, input.currency);
  return db.transaction(async (trx) => {
    const { id, roleIds } = await insertCompany(trx, input);
    await updateUser(trx, caller.userId, { company_id: id });
    // Tokens made before the person had a company belong to it now (the company's rows are what its requests see).
    await trx('api_tokens').where({ user_id: caller.userId }).whereNull('company_id').update({ company_id: id });
    const adminRole = roleIds.get('admin');
    if (adminRole) await replaceUserRoles(trx, { companyId: id }, caller.userId, [adminRole]);
    await emit(trx, { companyId: id, actorUserId: caller.userId, name: 'company.created', payload: { name: input.name } });
    const company = await requireCompany(trx, { companyId: id });
    return presentCompany(company, await minorUnitOf(trx, company.currency));
  });
}

/**
 * An internal admin sets up a participant without a browser sign-up: the company and its first
 * admin, invited to choose a password. All or nothing: an address already taken leaves no company.
 */
export async function createCompanyWithAdmin(ctx: RequestContext & { caller: Caller }, input: components['schemas']['CompanyWithAdminInput']): Promise<components['schemas']['CompanyWithAdmin']> {
  const db = ctx.deps.db;
  if (input.company.currency) await minorUnitOf(db, input.company.currency);
  return db.transaction(async (trx) => {
    const { id } = await insertCompany(trx, input.company);
    await emit(trx, { companyId: id, actorUserId: ctx.caller.userId, name: 'company.created', payload: { name: input.company.name, byInternalAdmin: true } });
    const admin = await provisionAccount({ ...ctx, db: trx, deps: { ...ctx.deps, db: trx } }, { companyId: id }, { ...input.admin, roleKeys: ['admin'], isCandidate: false, sendInvitation: input.sendInvitation ?? true });
    const company = await requireCompany(trx, { companyId: id });
    return { company: presentCompany(company, await minorUnitOf(trx, company.currency)), admin };
  });
}

/** Whether the company's anonymised records feed the market, and when they last did. */
export async function dataSubmissionStatus(ctx: Pick<ServiceContext, 'db' | 'caller'>): Promise<components['schemas']['DataSubmissionStatus']> {
  const { db, caller } = ctx;
  const company = (await requireCompany(db, companyScope(caller))) as CompanyRow & { market_participant: boolean | number; market_data_submitted_at: string | Date | null };
  const participates = Boolean(company.market_participant);
  const lastSubmittedAt = company.market_data_submitted_at ? new Date(company.market_data_submitted_at).toISOString() : null;
  return { participates, status: !participates ? 'not_participating' : lastSubmittedAt ? 'submitted' : 'awaiting_data', lastSubmittedAt };
}
