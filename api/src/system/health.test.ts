import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { request } from '../../test/http.js';

interface HealthReply {
  data: { status: string; version: string; database: { engine: string; migrations: { upToDate: boolean; pending: number; applied: number; latest: string | null } } };
}

describe('GET /api/health', () => {
  it('answers with the version, the database engine and an up-to-date migration state', async () => {
    const reply = await request<HealthReply>('/api/health');
    expect(reply.status).toBe(200);
    expect(reply.body.data.status).toBe('ok');
    expect(reply.body.data.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(reply.body.data.database.engine).toBe(inject('engine'));
    expect(reply.body.data.database.migrations).toMatchObject({ upToDate: true, pending: 0 });
    expect(reply.body.data.database.migrations.applied).toBeGreaterThan(0);
    expect(reply.body.data.database.migrations.latest).toMatch(/\.mjs$/);
  });

  it('echoes a sane request id and invents one otherwise', async () => {
    const given = await request('/api/health', { headers: { 'X-Request-Id': 'support-ticket-42' } });
    expect(given.headers.get('x-request-id')).toBe('support-ticket-42');
    const invented = await request('/api/health', { headers: { 'X-Request-Id': 'not sane; <script>' } });
    expect(invented.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends the security headers', async () => {
    const reply = await request('/api/health');
    expect(reply.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(reply.headers.get('x-content-type-options')).toBe('nosniff');
    expect(reply.headers.get('strict-transport-security')).toContain('max-age=');
    expect(reply.headers.get('x-powered-by')).toBeNull();
  });
});

describe('GET /api/ready', () => {
  it('says ready, with both roles on a node started with the defaults', async () => {
    const reply = await request<{ data: { status: string; roles: string[] } }>('/api/ready');
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual({ status: 'ready', roles: ['web', 'worker'] });
  });
});
