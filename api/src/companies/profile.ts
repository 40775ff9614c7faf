import { companyScope } from '../access/caller.js';
import type { FlagName } from '../access/flags.js';
import { findCompany } from '../access/usersStore.js';
import type { components } from '../contract-types.js';
import { notFound } from '../kernel/errors.js';
import type { ServiceContext } from '../kernel/operations.js';

/** Release flags that change the app for every member (not a module, which `/api/me` states per person). */
const EVERYONES_FLAGS: readonly FlagName[] = ['help_desk', 'multiplayer', 'release_job_manager_page'];

/**
 * The company as each of its members needs it on screen: its name and currency. Its money (share
 * price, valuation, exercise price), domains, tags and other flags are company settings. The error
 * screen's override, when Paybench set one, comes with it: every member's error screen shows it.
 */
export async function companyProfile(ctx: Pick<ServiceContext, 'db' | 'caller'>): Promise<components['schemas']['CompanyProfile']> {
  const { db, caller } = ctx;
  const company = await findCompany(db, companyScope(caller));
  if (!company) throw notFound();
  return {
    id: company.id,
    name: company.name,
    currency: company.currency,
    isDemo: Boolean(company.is_demo),
    flags: EVERYONES_FLAGS.filter((flag) => caller.flags[flag]),
    ...(company.error_screen_title && company.error_screen_description ? { errorScreen: { title: company.error_screen_title, description: company.error_screen_description } } : {}),
  };
}
