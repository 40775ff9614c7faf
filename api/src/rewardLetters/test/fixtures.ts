// Test support: a merit cycle planned as given, approved, closed, and its reward letters rendered.
// Requests go through the caller's HTTP helper, so this file needs nothing outside src/.

export type Call = (path: string, init: { method: string; token: string; json?: unknown; ifMatch?: number }) => Promise<{ status: number; body: unknown }>;

interface Versioned {
  data: { id: string; version: number };
}

function ok(reply: { status: number; body: unknown }, what: string, status = 200): unknown {
  if (reply.status !== status) throw new Error(`${what} answered ${reply.status}: ${JSON.stringify(reply.body)}`);
  return reply.body;
}

/** Plans (an edit per employee id), launches, approves every worksheet and closes a cycle as a whole-company planner; waits for its letters. */
export async function closedCycleWithLetters(
  call: Call,
  adminToken: string,
  cycle: { name: string; effectiveDate: string },
  plans: Record<string, Record<string, unknown>>,
): Promise<string> {
  const created = ok(
    await call('/api/v2/meritCycles', { method: 'POST', token: adminToken, json: { ...cycle, periodStart: '2025-01-01', periodEnd: '2025-12-31', components: ['merit', 'promotion', 'lumpSum', 'equityRefresh'] } }),
    'creating a cycle',
    201,
  ) as Versioned;
  const id = created.data.id;
  ok(await call(`/api/v2/meritCycles/${id}/transitions`, { method: 'POST', token: adminToken, ifMatch: created.data.version, json: { action: 'launch' } }), 'launching the cycle');
  for (const [employeeId, edit] of Object.entries(plans)) {
    const row = ok(await call(`/api/v2/meritCycles/${id}/employees/${employeeId}`, { method: 'GET', token: adminToken }), 'reading a row') as Versioned;
    ok(await call(`/api/v2/meritCycles/${id}/employees/${employeeId}`, { method: 'PATCH', token: adminToken, ifMatch: row.data.version, json: { ...edit, comment: 'Planned.' } }), 'planning a row');
  }
  const sheets = ok(await call(`/api/v2/meritCycles/${id}/worksheets`, { method: 'GET', token: adminToken }), 'listing worksheets') as { data: { id: string; version: number }[] };
  for (const sheet of sheets.data) {
    const submitted = ok(await call(`/api/v2/meritCycles/${id}/worksheets/${sheet.id}/submit`, { method: 'POST', token: adminToken, ifMatch: sheet.version, json: {} }), 'submitting a worksheet') as Versioned;
    ok(await call(`/api/v2/meritCycles/${id}/worksheets/${sheet.id}/approve`, { method: 'POST', token: adminToken, ifMatch: submitted.data.version, json: {} }), 'approving a worksheet');
  }
  const current = ok(await call(`/api/v2/meritCycles/${id}`, { method: 'GET', token: adminToken }), 'reading the cycle') as Versioned;
  ok(await call(`/api/v2/meritCycles/${id}/transitions`, { method: 'POST', token: adminToken, ifMatch: current.data.version, json: { action: 'close' } }), 'closing the cycle');
  const deadline = Date.now() + 60_000;
  while ((await call(`/api/v2/meritCycles/${id}/rewardLetters`, { method: 'GET', token: adminToken })).status !== 200) {
    if (Date.now() > deadline) throw new Error('the reward letters were not rendered within a minute');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return id;
}

/** Releases the cycle's letters with one action, at the version read. */
export async function releaseLetters(call: Call, adminToken: string, cycleId: string, action: 'releaseToManagers' | 'releaseToEmployees'): Promise<void> {
  const letters = ok(await call(`/api/v2/meritCycles/${cycleId}/rewardLetters`, { method: 'GET', token: adminToken }), 'reading the letters') as Versioned;
  ok(await call(`/api/v2/meritCycles/${cycleId}/rewardLetters/transitions`, { method: 'POST', token: adminToken, ifMatch: letters.data.version, json: { action } }), `${action}`);
}
