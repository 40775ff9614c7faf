import type { Logger } from 'pino';
import type { components } from '../contract-types.js';
import { notFound } from '../kernel/errors.js';
import { hasPermission, type PermissionMap } from './permissions.js';

export type FlagName = components['schemas']['ReleaseFlagName'];
export type ModuleName = components['schemas']['ModuleName'];

/** Release flags and their defaults (spec §6): off unless noted. */
export const FLAG_DEFAULTS: Record<FlagName, boolean> = {
  benchmarking: true,
  compensation_planning: false,
  total_rewards: false,
  offer_letters: false,
  team_view: false,
  bands: false,
  market_pricing: false,
  budgets: false,
  release_job_manager_page: true,
  multiplayer: false,
  help_desk: false,
};

export const FLAG_NAMES = Object.keys(FLAG_DEFAULTS) as FlagName[];

interface ModuleRule {
  /** What people call it, as the start of a sentence. */
  label: string;
  /** The flag that switches it on; undefined = always available. */
  flag?: FlagName;
  /** Every one must pass (view authority, any scope). */
  permissions: string[];
}

const MODULES: Record<ModuleName, ModuleRule> = {
  benchmarking: { label: 'Benchmarking', permissions: ['benchmarking'] },
  integrations: { label: 'Integrations', permissions: ['integrations'] },
  settings: { label: 'Settings', permissions: ['companySettings'] },
  compplanning: { label: 'Compensation planning', flag: 'compensation_planning', permissions: ['compensationPlanning'] },
  rewardLetters: { label: 'Reward letters', flag: 'compensation_planning', permissions: ['compensationPlanning'] },
  teamview: { label: 'The team view', flag: 'team_view', permissions: ['team'] },
  bands: { label: 'Salary bands', flag: 'bands', permissions: ['bands'] },
  visualOfferLetter: { label: 'Offer letters', flag: 'offer_letters', permissions: ['offers'] },
  totalRewards: { label: 'Total rewards', flag: 'total_rewards', permissions: ['totalRewards'] },
};

export const isModuleName = (name: string): name is ModuleName => Object.hasOwn(MODULES, name);

/** What people call a module, and the permissions it needs (view, any scope). */
export const moduleLabel = (name: ModuleName): string => MODULES[name].label;
export const modulePermissions = (name: ModuleName): readonly string[] => MODULES[name].permissions;

/**
 * 404 while the company does not have the module: its data does not exist for that company (spec §6),
 * as for anything not there. The router applies it to every operation the contract marks `x-module`.
 */
export function requireModule(name: ModuleName, flags: Record<FlagName, boolean>): void {
  if (!moduleAvailable(name, flags)) throw notFound(`${MODULES[name].label} is not switched on for your company.`);
}

export const MODULE_NAMES = Object.keys(MODULES) as ModuleName[];

/** Whether the company has a module; unknown names are logged and treated as unavailable. */
export function moduleAvailable(name: string, flags: Record<FlagName, boolean>, log?: Logger): boolean {
  const rule = (MODULES as Record<string, ModuleRule | undefined>)[name];
  if (!rule) {
    log?.error({ module: name }, 'unknown product module in gating');
    return false;
  }
  return rule.flag === undefined || flags[rule.flag];
}

/** A module is authorized only if available and every required permission passes. */
export function moduleStates(flags: Record<FlagName, boolean>, permissions: PermissionMap, log?: Logger) {
  return MODULE_NAMES.map((module) => {
    const available = moduleAvailable(module, flags, log);
    const authorized = available && MODULES[module].permissions.every((name) => hasPermission(permissions, name, 'view', undefined, log));
    return { module, available, authorized };
  });
}
