import { parse } from 'csv-parse/sync';
import { type Socket, io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, bearer, createTestCompany, testDb } from '../../test/factories.js';
import { type ErrorBody, baseUrl, request } from '../../test/http.js';
import type { components } from '../contract-types.js';

type Job = components['schemas']['BackgroundJob'];

function connect(token: string | undefined): Socket {
  return io(baseUrl(), { path: '/engine.io/', transports: ['websocket'], auth: token ? { token } : {}, reconnection: false, forceNew: true });
}

async function finished(admin: Record<string, string>, jobId: string): Promise<Job> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const reply = await request<{ data: Job }>(`/api/background-jobs/${jobId}`, { headers: admin });
    if (['succeeded', 'failed', 'cancelled'].includes(reply.body.data.status)) return reply.body.data;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${reply.body.data.status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('a users export, end to end', () => {
  let company: TestCompany;
  let other: TestCompany;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    const db = await testDb();
    company = await createTestCompany(db, 'Exporting Co');
    other = await createTestCompany(db, 'Other Co');
  });
  afterAll(() => sockets.forEach((socket) => socket.close()));

  it('refuses a socket without a valid token', async () => {
    for (const token of [undefined, 'pb_nonsense-token-value']) {
      const socket = connect(token);
      sockets.push(socket);
      const error = await new Promise<Error>((resolve) => socket.on('connect_error', resolve));
      expect(error.message).toBe('unauthenticated');
    }
  });

  it('runs as a job, reports live to its owner only, and produces a CSV that only the right people can fetch', async () => {
    const admin = company.users.admin!;
    const mine = connect(admin.token);
    const stranger = connect(other.users.admin!.token);
    sockets.push(mine, stranger);
    await Promise.all([mine, stranger].map((socket) => new Promise((resolve) => socket.on('connect', () => resolve(undefined)))));
    const seen: { jobId: string; status: string }[] = [];
    const strangerSaw: unknown[] = [];
    mine.on('emitBackgroundJobStatusUpdate', (event: { jobId: string; status: string }) => seen.push(event));
    stranger.on('emitBackgroundJobStatusUpdate', (event: unknown) => strangerSaw.push(event));

    const started = await request<{ data: Job }>('/api/users/exports', { method: 'POST', headers: { ...bearer(admin), 'X-Socket-Id': mine.id ?? '' } });
    expect(started.status).toBe(202);
    expect(started.body.data).toMatchObject({ type: 'usersExport', status: 'queued', progress: 0 });

    const job = await finished(bearer(admin), started.body.data.id);
    expect(job).toMatchObject({ status: 'succeeded', progress: 100 });
    expect(job.downloadId).toBeTruthy();
    await expect.poll(() => seen.filter((event) => event.jobId === job.id).map((event) => event.status).at(-1)).toBe('succeeded');
    expect(strangerSaw).toEqual([]);

    const listed = await request<{ data: Job[] }>('/api/me/background-jobs', { method: 'POST', headers: bearer(admin), json: { withinDays: 7 } });
    expect(listed.body.data.map((entry) => entry.id)).toContain(job.id);

    const file = await request<string>(`/api/downloads/${job.downloadId}`, { headers: bearer(admin) });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename="users-\d{4}-\d{2}-\d{2}\.csv"$/);
    const rows = parse(file.body, { columns: true }) as { email: string; roles: string }[];
    expect(rows).toHaveLength(5);
    expect(rows.find((row) => row.email === admin.email)?.roles).toBe('admin');

    // Someone whose permission covers users may fetch it; someone whose does not, or another company, may not.
    const planner = await request(`/api/downloads/${job.downloadId}`, { headers: bearer(company.users.compensation_planner!) });
    expect(planner.status).toBe(200);
    const employee = await request<ErrorBody>(`/api/downloads/${job.downloadId}`, { headers: bearer(company.users.employee!) });
    expect(employee.status).toBe(404);
    const otherCompany = await request<ErrorBody>(`/api/downloads/${job.downloadId}`, { headers: bearer(other.users.admin!) });
    expect(otherCompany.status).toBe(404);
    const jobOfOther = await request<ErrorBody>(`/api/background-jobs/${job.id}`, { headers: bearer(company.users.compensation_planner!) });
    expect(jobOfOther.status).toBe(404);
    const meta = await request<{ data: { filename: string; sizeBytes: number; kind: string } }>(`/api/downloads/${job.downloadId}/metadata`, { headers: bearer(admin) });
    // The file starts with a UTF-8 byte-order mark (3 bytes) that decoding the body as text drops.
    expect(meta.body.data).toMatchObject({ kind: 'usersExport', sizeBytes: Buffer.byteLength(file.body) + 3 });
  });

  it('cannot be started without the users permission', async () => {
    const reply = await request<ErrorBody>('/api/users/exports', { method: 'POST', headers: bearer(company.users.employee!) });
    expect(reply.status).toBe(403);
  });

  it('an expired download is gone', async () => {
    const admin = company.users.admin!;
    const started = await request<{ data: Job }>('/api/users/exports', { method: 'POST', headers: bearer(admin) });
    const job = await finished(bearer(admin), started.body.data.id);
    const db = await testDb();
    await db('downloads').where({ id: job.downloadId }).update({ expires_at: new Date(Date.now() - 1000).toISOString() });
    const reply = await request<ErrorBody>(`/api/downloads/${job.downloadId}`, { headers: bearer(admin) });
    expect(reply.status).toBe(404);
  });
});
