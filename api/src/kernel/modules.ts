import { existsSync, readdirSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import type { Knex } from 'knex';
import type { FlagDeclaration, ModuleName, ModuleSwitch, FlagName } from '../access/flags.js';
import type { PermissionDeclaration, PermissionName } from '../access/permissions.js';
import type { RealtimeEventName } from '../realtime/server.js';
import type { RegisteredOperation } from './operations.js';
import type { Middleware } from 'koa';
import type { AppDeps } from '../deps.js';
import type { AnyJobKind } from '../jobs/kind.js';
import type { EventSubscriber } from '../platform/events.js';

/**
 * What a product area brings to the server, declared in its own `<area>/module.ts`. The server
 * finds every such file at start (`discoverModules`): adding an area is adding its folder, its
 * part of the contract and its migration.
 */
export interface ApiModule {
  /** The folder's name; set by discovery. */
  area: string;
  /** The product module (spec §6) whose switch gates this area's operations (`x-module` in the contract). */
  module?: ModuleName;
  operations: readonly RegisteredOperation[];
  /** The permissions its operations require; an operation needing another one is refused at start. */
  permissions: readonly PermissionName[];
  jobs?: readonly AnyJobKind[];
  /** Reactions to domain events (its own or other areas'). */
  subscribers?: readonly EventSubscriber[];
  /**
   * Pages the server renders itself outside the contract (a link opened from an e-mail), mounted
   * before the API; their paths belong in `http/serverPaths.ts` so the service worker lets them through.
   */
  pages?: readonly ((deps: AppDeps) => Middleware)[];
  /** The permissions this area owns: what they mean, the scopes a role may grant, the built-in roles' grants. */
  ownPermissions?: { readonly [Name in PermissionName]?: PermissionDeclaration };
  /** The product modules (spec §6) this area owns: what people call them, their flag, the permissions they need. */
  switches?: { readonly [Name in ModuleName]?: ModuleSwitch };
  /** The release flags this area owns: their defaults, segments and whether the demo has them on. */
  flags?: { readonly [Name in FlagName]?: FlagDeclaration };
  /** The realtime events it sends; their payloads are typed on `RealtimeEvents` (realtime/server.ts), which its `module.ts` extends. */
  realtimeEvents?: readonly RealtimeEventName[];
  /** Its part of the demo company, written in the seed's transaction after the demo's people. */
  demo?: (trx: Knex.Transaction, company: DemoCompany) => Promise<void>;
}

/** The demo company an area's `demo` seed adds to. */
export interface DemoCompany {
  companyId: string;
  /** The demo's admin: the owner of what the seed starts. */
  adminUserId: string;
  domains: readonly string[];
}

export type ModuleDeclaration = Omit<ApiModule, 'area'>;

export function defineModule(declaration: ModuleDeclaration): ModuleDeclaration {
  return declaration;
}

/** The declaration file of an area in source (`.ts`, tests and tsx) or compiled (`.js`) form. */
function declarationFile(folder: string): string | undefined {
  return ['module.js', 'module.ts'].map((name) => path.join(folder, name)).find((file) => existsSync(file));
}

/** Every `<area>/module.ts` directly under `root`, in folder-name order. */
export async function discoverModules(root: string): Promise<ApiModule[]> {
  const folders = readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const modules: ApiModule[] = [];
  for (const area of folders) {
    const file = declarationFile(path.join(root, area));
    if (!file) continue;
    const loaded = (await import(pathToFileURL(file).href)) as { default?: ModuleDeclaration };
    if (!loaded.default) throw new Error(`${area}/module: its default export must be defineModule({...})`);
    modules.push({ ...loaded.default, area });
  }
  checkModules(modules);
  return modules;
}

/**
 * A module's switch and its operations' `x-module` in the contract must agree: the router gates by
 * the contract, so an operation the contract forgot to mark would be open to companies without it.
 */
export function checkGating(contract: { operations: readonly { operationId: string; module: string | undefined }[] }, modules: readonly ApiModule[]): void {
  const gateOf = new Map(contract.operations.map((operation) => [operation.operationId, operation.module]));
  for (const module of modules) {
    for (const operation of module.operations) {
      const gate = gateOf.get(operation.operationId);
      if (gate !== module.module) {
        throw new Error(`${module.area}/module: ${operation.operationId} is marked x-module ${gate ?? '(none)'} in the contract, but the module is ${module.module ?? 'not switchable'}`);
      }
    }
  }
}

/** What would otherwise fail later, or silently: a module's declarations must agree with each other. */
export function checkModules(modules: readonly ApiModule[]): void {
  const seen = new Map<string, string>();
  const claim = (what: string, area: string) => {
    const earlier = seen.get(what);
    if (earlier) throw new Error(`${what} is declared by both ${earlier} and ${area}`);
    seen.set(what, area);
  };
  for (const module of modules) {
    for (const operation of module.operations) {
      claim(`operation ${operation.operationId}`, module.area);
      const access = operation.access;
      if (access.kind === 'permission' && !module.permissions.includes(access.permission)) {
        throw new Error(`${module.area}/module: ${operation.operationId} needs the ${access.permission} permission, which the module does not declare`);
      }
    }
    for (const kind of module.jobs ?? []) claim(`job ${kind.type}`, module.area);
    for (const subscriber of module.subscribers ?? []) claim(`subscriber ${subscriber.name}`, module.area);
    for (const name of Object.keys(module.ownPermissions ?? {})) claim(`permission ${name}`, module.area);
    for (const name of Object.keys(module.switches ?? {})) claim(`product module ${name}`, module.area);
    for (const name of Object.keys(module.flags ?? {})) claim(`release flag ${name}`, module.area);
    for (const event of module.realtimeEvents ?? []) claim(`realtime event ${event}`, module.area);
  }
}

let installed: readonly ApiModule[] | undefined;

/**
 * Makes the areas' declarations the server's: what the floor reads (permissions, roles, flags,
 * modules) comes from here, so the floor names no area. `api/src/modules.ts` installs what it found.
 */
export function installModules(modules: readonly ApiModule[]): void {
  installed = modules;
}

/** The installed areas; refused before `api/src/modules.ts` has run, which would otherwise read as "no permissions". */
export function installedModules(): readonly ApiModule[] {
  if (!installed) throw new Error('The areas are not loaded yet: import api/src/modules.ts first.');
  return installed;
}
