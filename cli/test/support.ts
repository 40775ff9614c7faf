import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';

const BIN = path.resolve(import.meta.dirname, '..', 'bin', 'paybench.js');

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A private config home, so no test ever reads or writes a real person's sign-in. */
export const freshConfigHome = (): string => mkdtempSync(path.join(tmpdir(), 'paybench-cli-'));

const environment = (env: Record<string, string>): NodeJS.ProcessEnv => ({
  ...process.env,
  PAYBENCH_URL: inject('baseUrl'),
  PAYBENCH_TOKEN: '',
  NO_COLOR: '1',
  ...env,
});

/** Runs the real `paybench` binary, the way a script would: no TTY, captured output. */
export function paybench(args: string[], env: Record<string, string> = {}, input?: string): Run {
  const result = spawnSync(process.execPath, [BIN, ...args], { env: environment(env), encoding: 'utf8', timeout: 60_000, input });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The same, without waiting: for commands that need something else to happen meanwhile (a sign-in approved). */
export function paybenchInBackground(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [BIN, ...args], { env: environment(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<Run>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return {
    done,
    /** Resolves with the first match of `pattern` on stderr. */
    async stderrMatch(pattern: RegExp, timeoutMs = 20_000): Promise<RegExpExecArray> {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const match = pattern.exec(stderr);
        if (match) return match;
        if (Date.now() > until) throw new Error(`stderr never matched ${pattern}: ${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}

/**
 * A JSON request on a connection of its own, for after the binary ran: `spawnSync` blocks the test
 * process long enough for the server to close an idle kept-alive connection it has not yet seen closed.
 */
export function freshRequest<T>(pathname: string, init: { token: string; method?: string; json?: unknown }): Promise<{ status: number; body: T }> {
  const payload = init.json === undefined ? undefined : JSON.stringify(init.json);
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      `${inject('baseUrl')}${pathname}`,
      { method: init.method ?? 'GET', agent: false, headers: { Authorization: `Bearer ${init.token}`, ...(payload ? { 'Content-Type': 'application/json' } : {}) } },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: (body ? JSON.parse(body) : undefined) as T }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}
