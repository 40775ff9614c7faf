import type { Logger } from 'pino';
import type { components } from '../contract-types.js';
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
  /** The flag that switches it on; undefined = always available. */
  flag?: FlagName;
  /** Every one must pass (view authority, any scope). */
  permissions: string[];
}

const MODULES: Record<ModuleName, ModuleRule> = {
  benchmarking: { permissions: ['benchmarking'] },
  integrations: { permissions: ['integrations'] },
  settings: { permissions: ['companySettings'] },
  compplanning: { flag: 'compensation_planning', permissions: ['compensationPlanning'] },
  rewardLetters: { flag: 'compensation_planning', permissions: ['compensationPlanning'] },
  teamview: { flag: 'team_view', permissions: ['team'] },
  bands: { flag: 'bands', permissions: ['bands'] },
  visualOfferLetter: { flag: 'offer_letters', permissions: ['offers'] },
  totalRewards: { flag: 'total_rewards', permissions: ['totalRewards'] },
};

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
