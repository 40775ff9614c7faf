import path from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import type { AppDeps } from '../deps.js';
import { allOperations, apiModules } from '../modules.js';
import { checkGating } from '../kernel/modules.js';
import { loadContract } from './contract.js';
import { contractRouter } from './router.js';

const contract = loadContract(path.resolve(import.meta.dirname, '..', '..', '..', 'openapi.yaml'));
const deps = { config: loadConfig({}), log: pino({ level: 'silent' }), contract } as unknown as AppDeps;

describe('the router is built from the contract', () => {
  it('has exactly one handler for every operation, with access that agrees with the contract', () => {
    expect(() => contractRouter(deps, allOperations)).not.toThrow();
    expect(new Set(allOperations.map((op) => op.operationId))).toEqual(
      new Set(contract.operations.map((op) => op.operationId)),
    );
  });

  it('refuses to start when an operation has no handler', () => {
    expect(() => contractRouter(deps, allOperations.slice(1))).toThrow(/no handler implements it/);
  });

  it('refuses to start when a handler claims public access the contract does not grant', () => {
    const secured = { ...contract, operations: contract.operations.map((op) => ({ ...op, isPublic: false })) };
    expect(() => contractRouter({ ...deps, contract: secured }, allOperations)).toThrow(/disagrees with the contract/);
  });

  it('refuses to start when an operation names a module that does not exist', () => {
    const misnamed = { ...contract, operations: contract.operations.map((op) => (op.module ? { ...op, module: 'teamveiw' } : op)) };
    expect(() => contractRouter({ ...deps, contract: misnamed }, allOperations)).toThrow(/x-module "teamveiw" is not a product module/);
  });

  it("refuses to start when a module's switch and its operations' x-module disagree", () => {
    expect(() => checkGating(contract, apiModules)).not.toThrow();
    const unmarked = { ...contract, operations: contract.operations.map((op) => (op.operationId === 'getTeamOverview' ? { ...op, module: undefined } : op)) };
    expect(() => checkGating(unmarked, apiModules)).toThrow(/team\/module: getTeamOverview is marked x-module \(none\) in the contract, but the module is teamview/);
  });

  it('compiles every request and response schema (validators compile lazily in the server)', () => {
    for (const operation of contract.operations) expect(() => operation.compileAll(), operation.operationId).not.toThrow();
  });
});
