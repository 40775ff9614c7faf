// Test support: a launched merit cycle of a company, for the tenancy walk (another company's ids → 404).
// Requests go through the caller's HTTP helper, so this file needs nothing outside src/.

export type Call = (path: string, init: { method: string; token: string; json?: unknown; ifMatch?: number }) => Promise<{ status: number; body: unknown }>;

/** Switches compensation planning on for the company (as an internal admin of it). */
export async function switchOnPlanning(call: Call, supportToken: string, companyId: string): Promise<void> {
  const reply = await call(`/api/internal/companies/${companyId}/release-flags/compensation_planning`, { method: 'PUT', token: supportToken, json: { enabled: true } });
  if (reply.status !== 200) throw new Error(`switching compensation planning on answered ${reply.status}`);
}

/** A cycle launched over the company's people (at least one employee), and one of its worksheets. */
export async function meritCycleFixtures(call: Call, adminToken: string): Promise<{ meritCycleId: string; worksheetId: string }> {
  const created = await call('/api/v2/meritCycles', { method: 'POST', token: adminToken, json: { name: 'Tenancy cycle', effectiveDate: '2026-01-01', periodStart: '2025-01-01', periodEnd: '2025-12-31' } });
  if (created.status !== 201) throw new Error(`creating a cycle answered ${created.status}`);
  const cycle = (created.body as { data: { id: string; version: number } }).data;
  const launched = await call(`/api/v2/meritCycles/${cycle.id}/transitions`, { method: 'POST', token: adminToken, ifMatch: cycle.version, json: { action: 'launch' } });
  if (launched.status !== 200) throw new Error(`launching a cycle answered ${launched.status}: ${JSON.stringify(launched.body)}`);
  const sheets = await call(`/api/v2/meritCycles/${cycle.id}/worksheets`, { method: 'GET', token: adminToken });
  const worksheetId = (sheets.body as { data: { id: string }[] }).data[0]?.id;
  if (!worksheetId) throw new Error('the launched cycle has no worksheet');
  return { meritCycleId: cycle.id, worksheetId };
}
