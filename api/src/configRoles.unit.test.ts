import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

const postgres = { DATABASE_URL: 'postgres://db.example/paybench' };

describe('PAYBENCH_ROLES', () => {
  it('is web and worker by default, on either engine', () => {
    expect(loadConfig({}).roles).toEqual({ web: true, worker: true });
    expect(loadConfig(postgres).roles).toEqual({ web: true, worker: true });
  });

  it('splits a Postgres install into web and worker nodes', () => {
    expect(loadConfig({ ...postgres, PAYBENCH_ROLES: 'web' }).roles).toEqual({ web: true, worker: false });
    expect(loadConfig({ ...postgres, PAYBENCH_ROLES: ' Worker ' }).roles).toEqual({ web: false, worker: true });
    expect(loadConfig({ ...postgres, PAYBENCH_ROLES: 'worker,web' }).roles).toEqual({ web: true, worker: true });
  });

  it('refuses an unknown role, and a SQLite node that is not both', () => {
    expect(() => loadConfig({ ...postgres, PAYBENCH_ROLES: 'web,cron' })).toThrow('PAYBENCH_ROLES must be web, worker or web,worker, got "web,cron"');
    expect(() => loadConfig({ PAYBENCH_ROLES: 'worker' })).toThrow(/a SQLite database belongs to one process/);
  });

  it('reads the drain delay and the shutdown deadline', () => {
    expect(loadConfig({})).toMatchObject({ drainDelayMs: 0, shutdownTimeoutMs: 25_000 });
    expect(loadConfig({ PAYBENCH_DRAIN_DELAY_MS: '5000', PAYBENCH_SHUTDOWN_TIMEOUT_MS: '60000' })).toMatchObject({ drainDelayMs: 5_000, shutdownTimeoutMs: 60_000 });
  });
});

describe('the job lease', () => {
  it('is renewed every 5 s and taken over after 30 s by default, both settable', () => {
    expect(loadConfig({})).toMatchObject({ jobHeartbeatMs: 5_000, jobStaleMs: 30_000 });
    expect(loadConfig({ PAYBENCH_JOB_HEARTBEAT_MS: '200', PAYBENCH_JOB_STALE_MS: '3000' })).toMatchObject({ jobHeartbeatMs: 200, jobStaleMs: 3_000 });
  });

  it('refuses a lease shorter than two renewals, which would take a live worker its job', () => {
    // 2 × 5,000 = 10,000 > 9,999.
    expect(() => loadConfig({ PAYBENCH_JOB_STALE_MS: '9999' })).toThrow('PAYBENCH_JOB_STALE_MS (9999) must be at least twice PAYBENCH_JOB_HEARTBEAT_MS (5000), or a live worker\'s job is taken from it');
    expect(loadConfig({ PAYBENCH_JOB_STALE_MS: '10000' }).jobStaleMs).toBe(10_000);
  });
});
