import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestCompany, testDb } from '../../api/test/factories.js';
import { freshConfigHome, paybench } from './support.js';

const BIN = path.resolve(import.meta.dirname, '..', 'bin', 'paybench.js');
const ESCAPE = '\u001b';

/**
 * Runs the binary on a pseudo-terminal made by util-linux `script`, the way CI log capture does.
 * Without `stty` the terminal has no size (0 columns); `columns` gives it one.
 */
function onPseudoTerminal(args: string[], env: Record<string, string>, columns?: number) {
  const quoted = [process.execPath, BIN, ...args].map((part) => `'${part.replace(/'/g, `'\\''`)}'`).join(' ');
  const command = columns ? `stty cols ${columns} rows 24; ${quoted}` : quoted;
  const result = spawnSync('script', ['-q', '-e', '-c', command, '/dev/null'], {
    env: { ...process.env, PAYBENCH_URL: inject('baseUrl'), PAYBENCH_TOKEN: '', NO_COLOR: '', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, output: result.stdout };
}

const EXPORT = ['benchmark', 'export', '--family', 'Software Engineering', '--level', 'P3', '--location', '840_1'];

describe('paybench in scripts and on terminals', () => {
  let env: Record<string, string>;
  let home: string;
  beforeAll(async () => {
    const company = await createTestCompany(await testDb());
    home = freshConfigHome();
    env = { PAYBENCH_TOKEN: company.users.analyst!.token, XDG_CONFIG_HOME: home };
  });

  it('exits 2 for an unknown command, an unknown option, a missing argument or a missing required option; 0 for help', () => {
    const unknown = paybench(['frobnicate'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toContain("error: unknown command 'frobnicate'");
    const option = paybench(['users', 'list', '--colour'], env);
    expect(option.code).toBe(2);
    expect(option.stderr).toContain("error: unknown option '--colour'");
    const argument = paybench(['users', 'import'], env);
    expect(argument.code).toBe(2);
    expect(argument.stderr).toContain("error: missing required argument 'file'");
    const required = paybench(['benchmark', 'query', '--family', 'Software Engineering', '--location', '840_1'], env);
    expect(required.code).toBe(2);
    expect(required.stderr).toContain("error: required option '--level <level>' not specified");
    const bare = paybench(['users'], env);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('Usage: paybench users');
    const help = paybench(['users', '--help'], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: paybench users');
    expect(help.stdout).toContain('list [options]');
    expect(paybench(['--version'], env).code).toBe(0);
  });

  it('says "Not signed in" and which command signs in, not that the server cannot be reached', () => {
    const signedOut = { XDG_CONFIG_HOME: freshConfigHome() };
    const run = paybench(['users', 'list'], signedOut);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`Error: Not signed in: run \`paybench login --url ${inject('baseUrl')}\` (or pass --token / PAYBENCH_TOKEN).\n`);
    // Not even a server that is down makes a missing sign-in look like a connection problem.
    const down = paybench(['benchmark', 'filters', '--json', '--url', 'http://127.0.0.1:9'], signedOut);
    expect(down.code).toBe(1);
    expect(down.stderr).toBe('Error: Not signed in: run `paybench login --url http://127.0.0.1:9` (or pass --token / PAYBENCH_TOKEN).\n');
    expect(JSON.parse(down.stdout)).toEqual({ error: { code: 'not_signed_in', message: 'Not signed in: run `paybench login --url http://127.0.0.1:9` (or pass --token / PAYBENCH_TOKEN).' } });
    // A real connection failure still says so.
    const unreachable = paybench(['users', 'list', '--url', 'http://127.0.0.1:9'], env);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain('Error: Could not reach Paybench at http://127.0.0.1:9');
    expect(unreachable.stderr).not.toContain('Not signed in');
  });

  it('prints plain lines without a TTY: no progress drawing and no control codes', () => {
    const file = path.join(home, 'plain.csv');
    const run = paybench([...EXPORT, '-o', file], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe('');
    expect(readFileSync(file, 'utf8').split('\n')[0]).toContain('P50');
  });

  const script = existsSync('/usr/bin/script') || existsSync('/bin/script');

  it.skipIf(!script)('draws no progress and no control codes on a terminal without a width or with TERM=dumb, and does on a real one', () => {
    const target = (name: string) => path.join(home, name);
    // Under `script` with no size, as in CI log capture: plain lines only.
    const noWidth = onPseudoTerminal([...EXPORT, '-o', target('no-width.csv')], { ...env, TERM: 'xterm-256color' });
    expect(noWidth.code).toBe(0);
    expect(noWidth.output).not.toContain(ESCAPE);
    expect(noWidth.output.replace(/\r/g, '')).toBe(`Wrote ${target('no-width.csv')}\n`);
    const dumb = onPseudoTerminal([...EXPORT, '-o', target('dumb.csv')], { ...env, TERM: 'dumb' }, 80);
    expect(dumb.code).toBe(0);
    expect(dumb.output).not.toContain(ESCAPE);
    expect(dumb.output.replace(/\r/g, '')).toBe(`Wrote ${target('dumb.csv')}\n`);
    // A failure is plain too: no colour codes around "Error:".
    const refused = onPseudoTerminal(['users', 'import', target('missing.csv')], { ...env, TERM: 'dumb' }, 80);
    expect(refused.code).toBe(2);
    expect(refused.output).not.toContain(ESCAPE);
    expect(refused.output).toContain(`Error: Cannot read ${target('missing.csv')}`);
    // The same export on a terminal that knows its width draws the bar (so the checks above can fail).
    const real = onPseudoTerminal([...EXPORT, '-o', target('real.csv')], { ...env, TERM: 'xterm-256color' }, 80);
    expect(real.code).toBe(0);
    expect(real.output).toContain(ESCAPE);
    expect(real.output).toContain('Exporting market data');
  });
});
