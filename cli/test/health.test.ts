import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';

const BIN = path.resolve(import.meta.dirname, '..', 'bin', 'paybench.js');

/** Runs the real `paybench` binary, the way a script would: no TTY, captured output. */
export function paybench(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    env: { ...process.env, PAYBENCH_URL: inject('baseUrl'), NO_COLOR: '1', ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('paybench health', () => {
  it('prints the server status, version and database for a person', () => {
    const run = paybench(['health']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Status\s+ok$/m);
    expect(run.stdout).toMatch(new RegExp(`^Database\\s+${inject('engine')}$`, 'm'));
    expect(run.stdout).toMatch(/^Migrations\s+up to date/m);
    expect(run.stderr).toBe('');
  });

  it('prints JSON that parses with --json', () => {
    const run = paybench(['health', '--json']);
    expect(run.code).toBe(0);
    const parsed = JSON.parse(run.stdout) as { status: string; database: { engine: string } };
    expect(parsed.status).toBe('ok');
    expect(parsed.database.engine).toBe(inject('engine'));
  });

  it('says clearly when the server cannot be reached, and exits 1', () => {
    const run = paybench(['health', '--url', 'http://127.0.0.1:9']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('Could not reach Paybench at http://127.0.0.1:9');
  });
});
