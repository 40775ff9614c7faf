import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, request } from '../../test/http.js';
import { TestSockets } from '../../test/sockets.js';
import { loadConfig } from '../config.js';
import type { components } from '../contract-types.js';
import { switchOnPlanning } from '../meritCycles/test/fixtures.js';
import { type RunningServer, startServer } from '../server.js';
import { insertEmployee, insertPay } from '../team/test/fixtures.js';

type Schemas = components['schemas'];
type Data<T> = { data: T };

/*
 * Two whole API servers on the one Postgres database: the shared test server (node 1) and a second
 * started here on the same schema (node 2). Planner A edits through node 1; planner B, viewing the
 * cycle, has their socket on node 2 and hears of it through the Postgres adapter.
 */
let second: RunningServer;
let company: TestCompany;
let plannerA: TestUser;
let plannerB: TestUser;
let outsider: TestUser;
let adaId: string;
const sockets = new TestSockets();

const call = <T>(user: TestUser, path: string, init: { method?: string; json?: unknown; ifMatch?: number; base?: string } = {}) =>
  request<T & ErrorBody>(path, {
    base: init.base,
    method: init.method ?? 'GET',
    headers: { ...bearer(user), ...(init.ifMatch !== undefined ? { 'If-Match': `"${init.ifMatch}"` } : {}) },
    json: init.json,
  });

beforeAll(async () => {
  second = await startServer(loadConfig({ ...process.env, ...inject('serverEnv') }));
  const db = await testDb();
  company = await createTestCompany(db, 'Two Nodes Co');
  plannerA = company.users.admin as TestUser;
  plannerB = company.users.compensation_planner as TestUser;
  outsider = await createTestUser(db, { companyId: company.id, roleIds: [company.roleIds.get('compensation_planner') ?? ''] });
  const support = await createTestUser(db, { companyId: company.id, internalAdmin: true });
  await switchOnPlanning((path, init) => request(path, { method: init.method, headers: { Authorization: `Bearer ${init.token}` }, json: init.json }), support.token, company.id);
  adaId = await insertEmployee(db, company.id, { firstName: 'Ada', lastName: 'Anchor', performanceRating: 'meets' });
  await insertPay(db, company.id, adaId, [{ type: 'base_salary', amount: 10_000_000, currency: 'USD', effectiveDate: '2024-01-01' }]);
}, 300_000);

afterAll(async () => {
  sockets.closeAll();
  // Only the second node is closed: the schema is the shared server's, which drops it at the end.
  await second?.close();
});

/** Every merit-cycle update a socket receives, as it arrives. */
function heard(socket: Socket): Record<string, unknown>[] {
  const messages: Record<string, unknown>[] = [];
  socket.on('emitMeritCycleEmployeesUpdate', (message: Record<string, unknown>) => messages.push(message));
  return messages;
}

describe('a merit-cycle edit on one node', () => {
  it('reaches a viewer whose socket is on another node, with the row and its version but no pay, and nobody else', async () => {
    const created = await call<Data<Schemas['MeritCycle']>>(plannerA, '/api/v2/meritCycles', { method: 'POST', json: { name: 'Two nodes', effectiveDate: '2026-01-01', periodStart: '2025-01-01', periodEnd: '2025-12-31', currency: 'USD' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const cycleId = created.body.data.id;
    const launched = await call(plannerA, `/api/v2/meritCycles/${cycleId}/transitions`, { method: 'POST', ifMatch: created.body.data.version, json: { action: 'launch' } });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);

    // Planner B opens the worksheet through node 2; the outsider, a planner too, has not opened the cycle.
    const sheets = await call<Data<Schemas['Worksheet'][]>>(plannerB, `/api/v2/meritCycles/${cycleId}/worksheets`, { base: second.url });
    expect(sheets.status).toBe(200);
    const worksheetId = sheets.body.data[0]?.id ?? '';
    expect((await call(plannerB, `/api/v2/meritCycles/${cycleId}/worksheets/${worksheetId}`, { base: second.url })).status).toBe(200);
    const viewer = await sockets.connect(second.url, plannerB.token);
    const bystander = await sockets.connect(second.url, outsider.token);
    const toViewer = heard(viewer);
    const toBystander = heard(bystander);

    const row = await call<Data<Schemas['WorksheetEmployee']>>(plannerA, `/api/v2/meritCycles/${cycleId}/employees/${adaId}`);
    expect(row.status).toBe(200);
    const edited = await call(plannerA, `/api/v2/meritCycles/${cycleId}/employees/${adaId}`, { method: 'PATCH', ifMatch: row.body.data.version, json: { meritPercentBp: 375 } });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);

    await expect.poll(() => toViewer.length, { timeout: 10_000 }).toBe(1);
    expect(toViewer[0]).toEqual({
      meritCycleId: cycleId,
      worksheetIds: [worksheetId],
      employees: [{ employeeId: adaId, version: row.body.data.version + 1 }],
      actorUserId: plannerA.id,
      originSocketId: null,
      reason: 'edited',
    });
    // Positive control for the bystander's silence: a second edit reaches the viewer too, and by then
    // the first would long have reached the bystander had it been sent to them.
    const again = await call(plannerA, `/api/v2/meritCycles/${cycleId}/employees/${adaId}`, { method: 'PATCH', ifMatch: row.body.data.version + 1, json: { meritPercentBp: 400 } });
    expect(again.status).toBe(200);
    await expect.poll(() => toViewer.length, { timeout: 10_000 }).toBe(2);
    expect(toViewer[1]).toMatchObject({ employees: [{ employeeId: adaId, version: row.body.data.version + 2 }] });
    expect(toBystander).toEqual([]);
  });
});
