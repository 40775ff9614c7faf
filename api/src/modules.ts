import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RegisteredOperation } from './kernel/operations.js';
import type { AnyJobKind } from './jobs/kind.js';
import type { EventSubscriber } from './platform/events.js';
import { type ApiModule, discoverModules, installModules } from './kernel/modules.js';

/** Every product area's `module.ts`, found in the folders beside this file (source or compiled). */
export const apiModules: readonly ApiModule[] = await discoverModules(path.dirname(fileURLToPath(import.meta.url)));
installModules(apiModules);

/** Every handler of the contract, by product area. */
export const allOperations: readonly RegisteredOperation[] = apiModules.flatMap((module) => module.operations);

export const allJobKinds: readonly AnyJobKind[] = apiModules.flatMap((module) => module.jobs ?? []);

export const allSubscribers: readonly EventSubscriber[] = apiModules.flatMap((module) => module.subscribers ?? []);
