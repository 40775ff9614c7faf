import path from 'node:path';
import { Readable } from 'node:stream';
import pino from 'pino';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { saveDownload } from '../src/downloads/service.js';
import { DirectoryStorage } from '../src/downloads/storage.js';
import { JobQueue } from '../src/jobs/queue.js';
import { loadContract } from '../src/http/contract.js';
import { allOperations } from '../src/operations.js';
import { fillPath, sampleBody } from './contractSamples.js';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from './factories.js';
import { type ErrorBody, request } from './http.js';

const contract = loadContract(path.resolve(import.meta.dirname, '..', '..', 'openapi.yaml'));
const accessOf = new Map<string, string>(allOperations.map((op) => [op.operationId, op.access.kind]));
const secured = contract.operations.filter((op) => !op.isPublic);
const withIds = secured.filter((op) => op.pathParameters.length > 0);

/**
 * Path parameters that name something other than a company's own record. `companyId` on the
 * internal tools is the point of those tools: internal staff reach every company by design.
 */
const CROSS_COMPANY_BY_DESIGN = new Set(['listCompanyReleaseFlags:companyId', 'setCompanyReleaseFlag:companyId']);
/** Path parameters that are not ids (enumerations validated by the contract). */
const NOT_IDS = new Set(['flag']);

describe('every secured operation refuses a caller without a token', () => {
  it.each(secured.map((op) => [op.operationId, op] as const))('%s answers 401 with the reason', async (_id, op) => {
    const reply = await request<ErrorBody>(fillPath(op, { flag: 'bands' }), { method: op.method.toUpperCase(), json: sampleBody(contract, op) });
    expect(reply.status).toBe(401);
    expect(reply.body).toMatchObject({ code: 'unauthenticated', title: 'Permission denied', clientResponse: { message: 'missing_token' } });
  });

  it('refuses a token that was never issued, and says so', async () => {
    const reply = await request<ErrorBody>('/api/me', { headers: { Authorization: 'Bearer pb_not-a-real-token-at-all' } });
    expect(reply.status).toBe(401);
    expect(reply.body.clientResponse?.message).toBe('invalid');
  });
});

describe("another company's ids answer 404", () => {
  let a: TestCompany;
  let b: TestCompany;
  let ids: Record<string, string>;
  let bInternal: TestUser;

  beforeAll(async () => {
    const db = await testDb();
    a = await createTestCompany(db, 'Tenant A');
    b = await createTestCompany(db, 'Tenant B');
    const aInternal = await createTestUser(db, { companyId: a.id, internalAdmin: true });
    bInternal = await createTestUser(db, { companyId: b.id, internalAdmin: true });
    const aToken = await db('api_tokens').where({ user_id: a.users.admin?.id }).first<{ id: string }>();
    const session = await request<{ data: { id: string } }>('/api/v2/view-as-sessions', {
      method: 'POST',
      headers: bearer(aInternal),
      json: { userEmail: a.users.employee?.email, reason: 'tenancy test' },
    });
    const job = await new JobQueue(db, pino({ level: 'silent' }), undefined).enqueue({ companyId: a.id, ownerUserId: a.users.admin?.id ?? '', type: 'tenancyProbe', input: {} });
    const download = await saveDownload(db, new DirectoryStorage(path.join(inject('serverEnv').PAYBENCH_DATA_DIR ?? '', 'downloads')), {
      companyId: a.id,
      ownerUserId: a.users.admin?.id ?? '',
      jobId: job.id,
      kind: 'tenancyProbe',
      filename: 'a.csv',
      contentType: 'text/csv',
      permission: 'users',
      content: Readable.from(['salary\n']),
    });
    ids = {
      jobId: job.id,
      downloadId: download.id,
      tokenId: aToken.id,
      roleId: a.roleIds.get('admin') ?? '',
      userId: a.users.employee?.id ?? '',
      companyId: a.id,
      sessionId: session.body.data.id,
      // Market releases are shared by every company, so no release is company A's: an id of A's that is no release answers 404.
      releaseId: job.id,
    };
  });

  it('covers every operation that takes an id', () => {
    expect(withIds.length).toBeGreaterThan(5);
    for (const op of withIds) {
      for (const name of op.pathParameters) {
        if (!NOT_IDS.has(name) && !CROSS_COMPANY_BY_DESIGN.has(`${op.operationId}:${name}`)) {
          expect(ids[name], `no company-A fixture for path parameter ${name} of ${op.operationId}`).toBeDefined();
        }
      }
    }
  });

  it.each(withIds.map((op) => [op.operationId, op] as const))('%s with company A ids, called by company B', async (operationId, op) => {
    const crossCompany = op.pathParameters.some((name) => CROSS_COMPANY_BY_DESIGN.has(`${operationId}:${name}`));
    const caller = accessOf.get(operationId) === 'internalAdmin' ? bInternal : (b.users.admin as TestUser);
    const reply = await request<ErrorBody>(fillPath(op, { ...ids, flag: 'bands' }), {
      method: op.method.toUpperCase(),
      headers: { ...bearer(caller), 'If-Match': '"1"' },
      json: sampleBody(contract, op),
    });
    if (crossCompany) {
      // Internal staff may act on any company; everyone else is refused outright.
      expect(reply.status).toBeLessThan(400);
      const outsider = await request<ErrorBody>(fillPath(op, { ...ids, flag: 'bands' }), {
        method: op.method.toUpperCase(),
        headers: bearer(b.users.admin as TestUser),
        json: sampleBody(contract, op),
      });
      expect(outsider.status).toBe(403);
      return;
    }
    expect(reply.status).toBe(404);
    expect(reply.body).toMatchObject({ code: 'not_found', title: 'Not found' });
  });
});
