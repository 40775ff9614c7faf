import type { Logger } from 'pino';
import type { components } from '../contract-types.js';
import { notFound } from '../kernel/errors.js';
import { type ApiModule, installedModules } from '../kernel/modules.js';
import { type PermissionMap, type PermissionName, hasPermission } from './permissions.js';

export type FlagName = components['schemas']['ReleaseFlagName'];
export type ModuleName = components['schemas']['ModuleName'];
export type EnterpriseTag = components['schemas']['EnterpriseTag'];

/**
 * What an area says about a release flag it owns (spec §6). Customer segments tie flags: the admin
 * SaaS customers buy the compensation-management suite, the pricing-and-packaging customers salary
 * bands and market pricing. Internal admins set a company's tags; setting them switches the tied
 * flags on or off (`internal/service.ts`), and a flag set by hand afterwards stays as set.
 */
export interface FlagDeclaration {
  default: boolean;
  /** Its place in lists of flags (in tens). */
  order: number;
  /** The segments whose tag switches it on. */
  segments?: readonly EnterpriseTag[];
  /** On in the demo company. */
  demo?: boolean;
}

/** What an area says about a product module (spec §6) it owns: the switch its operations share (`x-module`). */
export interface ModuleSwitch {
  /** What people call it, as the start of a sentence. */
  label: string;
  /** The flag that switches it on; undefined = always available. */
  flag?: FlagName;
  /** Every one must pass (view authority, any scope). */
  permissions: readonly PermissionName[];
  /** Its place in lists of modules (in tens). */
  order: number;
}

/** The customer segments (spec §6), in the order lists show them. */
export const ENTERPRISE_TAGS: readonly EnterpriseTag[] = ['admin_saas_customers', 'pricing_packaging_customer'];

interface Declared {
  modules: readonly ApiModule[];
  flags: ReadonlyMap<FlagName, FlagDeclaration>;
  switches: ReadonlyMap<ModuleName, ModuleSwitch>;
}
let known: Declared | undefined;

function byOrder<Name extends string, Value extends { order: number }>(entries: [Name, Value][]): Map<Name, Value> {
  return new Map(entries.sort(([, a], [, b]) => a.order - b.order));
}

/** The installed areas' flags and modules, each in its order. */
function declared(): Declared {
  const modules = installedModules();
  if (known?.modules !== modules) {
    known = {
      modules,
      flags: byOrder(modules.flatMap((module) => Object.entries(module.flags ?? {}) as [FlagName, FlagDeclaration][])),
      switches: byOrder(modules.flatMap((module) => Object.entries(module.switches ?? {}) as [ModuleName, ModuleSwitch][])),
    };
  }
  return known;
}

/** Release flags and their defaults (spec §6): off unless the owning area says otherwise. */
export function flagDefaults(): Record<FlagName, boolean> {
  return Object.fromEntries([...declared().flags].map(([name, flag]) => [name, flag.default])) as Record<FlagName, boolean>;
}

export const flagNames = (): FlagName[] => [...declared().flags.keys()];

/** The flags each customer segment ties, in flag order. */
export function segmentFlags(tag: EnterpriseTag): FlagName[] {
  return [...declared().flags].filter(([, flag]) => flag.segments?.includes(tag)).map(([name]) => name);
}

/** The flags the demo company has on. */
export const demoFlags = (): FlagName[] => [...declared().flags].filter(([, flag]) => flag.demo).map(([name]) => name);

export const isModuleName = (name: string): name is ModuleName => declared().switches.has(name as ModuleName);

function switchOf(name: ModuleName): ModuleSwitch {
  const rule = declared().switches.get(name);
  if (!rule) throw new Error(`No area declares the product module ${name}`);
  return rule;
}

/** What people call a module, and the permissions it needs (view, any scope). */
export const moduleLabel = (name: ModuleName): string => switchOf(name).label;
export const modulePermissions = (name: ModuleName): readonly string[] => switchOf(name).permissions;

/**
 * 404 while the company does not have the module: its data does not exist for that company (spec §6),
 * as for anything not there. The router applies it to every operation the contract marks `x-module`.
 */
export function requireModule(name: ModuleName, flags: Record<FlagName, boolean>): void {
  if (!moduleAvailable(name, flags)) throw notFound(`${switchOf(name).label} is not switched on for your company.`);
}

export const moduleNames = (): ModuleName[] => [...declared().switches.keys()];

/** Whether the company has a module; unknown names are logged and treated as unavailable. */
export function moduleAvailable(name: string, flags: Record<FlagName, boolean>, log?: Logger): boolean {
  const rule = declared().switches.get(name as ModuleName);
  if (!rule) {
    log?.error({ module: name }, 'unknown product module in gating');
    return false;
  }
  return rule.flag === undefined || flags[rule.flag];
}

/** A module is authorized only if available and every required permission passes. */
export function moduleStates(flags: Record<FlagName, boolean>, permissions: PermissionMap, log?: Logger) {
  return [...declared().switches].map(([module, rule]) => {
    const available = moduleAvailable(module, flags, log);
    const authorized = available && rule.permissions.every((name) => hasPermission(permissions, name, 'view', undefined, log));
    return { module, available, authorized };
  });
}
