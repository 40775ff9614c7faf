import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtinRoles } from '../src/access/builtinRoles.js';
import { hasPermission } from '../src/access/permissions.js';
import { loadContract } from '../src/http/contract.js';
import { allOperations } from '../src/modules.js';
import { fillPath } from './contractSamples.js';
import { type TestCompany, bearer, createTestCompany, testDb } from './factories.js';
import { type ErrorBody, request } from './http.js';

const contract = loadContract(path.resolve(import.meta.dirname, '..', '..', 'openapi.yaml'));
const BUILTIN_ROLES = builtinRoles();
const gated = allOperations.flatMap((op) => (op.access.kind === 'permission' ? [{ op, access: op.access }] : []));

/**
 * Each built-in role against each permission-gated operation. The expectation comes from the
 * documented role definitions; requests use unknown ids and empty bodies so an allowed call is
 * answered 404 or 400 (nothing changes) while a refused one is 403.
 */
describe('the permission matrix of the built-in roles', () => {
  let company: TestCompany;
  beforeAll(async () => {
    company = await createTestCompany(await testDb(), 'Matrix Co');
  });

  const cases = gated.flatMap(({ op, access }) =>
    BUILTIN_ROLES.map((role) => ({
      label: `${role.key} ${hasPermission(role.permissions, access.permission, access.authority, undefined) ? 'may' : 'may not'} ${op.operationId}`,
      role: role.key,
      operationId: op.operationId,
      allowed: hasPermission(role.permissions, access.permission, access.authority, undefined),
    })),
  );

  it('covers every gated operation for every role', () => {
    expect(gated.length).toBeGreaterThanOrEqual(10);
    expect(cases.length).toBe(gated.length * BUILTIN_ROLES.length);
  });

  it.each(cases)('$label', async ({ role, operationId, allowed }) => {
    const op = contract.operations.find((candidate) => candidate.operationId === operationId);
    if (!op) throw new Error(`${operationId} is not in the contract`);
    const user = company.users[role];
    if (!user) throw new Error(`no ${role} in the test company`);
    const reply = await request<ErrorBody>(fillPath(op, {}), {
      method: op.method.toUpperCase(),
      headers: bearer(user),
      json: op.method === 'get' ? undefined : {},
    });
    if (allowed) {
      expect(reply.status, JSON.stringify(reply.body)).not.toBe(403);
      expect(reply.status).toBeLessThan(500);
    } else {
      expect(reply.status).toBe(403);
      expect(reply.body).toMatchObject({
        title: 'Permission denied',
        description: 'You do not have access to this content. Please contact your company admin for support.',
      });
    }
  });
});
