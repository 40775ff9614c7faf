import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { chooseLogFormat, prettyDestination, prettyLine } from './logFormat.js';

// 14:02:11 on the machine's own clock, whatever its time zone.
const AT = new Date(2026, 11, 7, 14, 2, 11).getTime();

describe('the log format', () => {
  it('is readable on a terminal and JSON otherwise, unless LOG_FORMAT says', () => {
    expect(chooseLogFormat(undefined, true)).toBe('pretty');
    expect(chooseLogFormat(undefined, false)).toBe('json');
    expect(chooseLogFormat('json', true)).toBe('json');
    expect(chooseLogFormat(' JSON ', true)).toBe('json');
    expect(chooseLogFormat('pretty', false)).toBe('pretty');
    expect(chooseLogFormat('', false)).toBe('json');
    expect(() => chooseLogFormat('yaml', true)).toThrow('LOG_FORMAT must be "json" or "pretty", not "yaml".');
  });

  it('writes a request as method, path, status and milliseconds on one line', () => {
    const line = JSON.stringify({ level: 30, time: AT, pid: 1, hostname: 'h', reqId: 'r1', method: 'GET', url: '/api/me', status: 200, ms: 12.3, msg: 'request' });
    expect(prettyLine(line)).toBe('14:02:11 GET /api/me 200 12.3 ms\n');
    const aborted = JSON.stringify({ level: 30, time: AT, method: 'GET', url: '/api/exports/1', status: 499, ms: 40, msg: 'request aborted by the client' });
    expect(prettyLine(aborted)).toBe('14:02:11 GET /api/exports/1 499 40 ms (client went away)\n');
  });

  it('writes other lines with their level (but INFO), message and fields, and an error’s stack below', () => {
    expect(prettyLine(JSON.stringify({ level: 30, time: AT, msg: 'stopped cleanly', signal: 'SIGTERM', exitCode: 0 }))).toBe('14:02:11 stopped cleanly signal=SIGTERM exitCode=0\n');
    expect(prettyLine(JSON.stringify({ level: 40, time: AT, msg: 'slow job', job: 'nightly insights' }))).toBe('14:02:11 WARN slow job job="nightly insights"\n');
    const failed = prettyLine(JSON.stringify({ level: 50, time: AT, msg: 'response failed', err: { message: 'boom', stack: 'Error: boom\n    at x (a.js:1:1)' } }));
    expect(failed).toBe('14:02:11 ERROR response failed\n    Error: boom\n        at x (a.js:1:1)\n');
    expect(prettyLine('not json')).toBe('not json\n');
    const applied = Array.from({ length: 52 }, (_, index) => `2026112${index}_step.mjs`);
    expect(prettyLine(JSON.stringify({ level: 30, time: AT, msg: 'migrations applied', applied }))).toBe('14:02:11 migrations applied applied=52 items\n');
    expect(prettyLine(JSON.stringify({ level: 30, time: AT, msg: 'reference data loaded', currencies: 178, codes: ['USD', 'EUR'] }))).toBe('14:02:11 reference data loaded currencies=178 codes=["USD","EUR"]\n');
  });

  it('turns a real pino logger’s lines into readable ones', () => {
    const out = new PassThrough();
    let written = '';
    out.on('data', (chunk: Buffer) => (written += chunk.toString()));
    const log = pino({ level: 'info' }, prettyDestination(out));
    log.child({ reqId: 'abc' }).info({ method: 'POST', url: '/api/offers', status: 201, ms: 8 }, 'request');
    log.debug('not shown');
    expect(written).toMatch(/^\d\d:\d\d:\d\d POST \/api\/offers 201 8 ms\n$/);
  });

  it('writes JSON lines without blocking, and none is lost when the process exits at once', () => {
    // A child that logs many lines and exits in the same tick: what is still buffered is written on exit.
    const module = pathToFileURL(path.join(import.meta.dirname, 'logFormat.ts')).href;
    const code = `const { jsonDestination } = await import(${JSON.stringify(module)}); const { default: pino } = await import('pino'); const log = pino({ level: 'info' }, jsonDestination()); for (let i = 0; i < 2000; i++) log.info({ i }, 'line'); process.exit(0);`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { encoding: 'utf8' });
    expect(child.status, child.stderr).toBe(0);
    const lines = child.stdout.trim().split('\n').map((line) => JSON.parse(line) as { i: number; msg: string });
    expect(lines).toHaveLength(2000);
    expect(lines.map((line) => line.i)).toEqual(Array.from({ length: 2000 }, (_, i) => i));
  });
});
