// `npm test`: everything, in the order a failure is cheapest to find.
// Contract freshness and lint, typecheck, build, then the whole suite on SQLite and, when
// TEST_DATABASE_URL is set, the integration suite again on Postgres (with the browser tests named
// below: the rest of the browser suite drives the same screens on SQLite).
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { run } from './lib.mjs';

const steps = [
  ['contract types are fresh', 'node', ['scripts/gen-check.mjs']],
  ['lint', 'npm', ['run', 'lint', '--silent']],
  ['typecheck', 'npm', ['run', 'typecheck', '--silent']],
  ['build', 'npm', ['run', 'build', '--silent']],
];

for (const [name, command, args] of steps) {
  process.stdout.write(`\n▶ ${name}\n`);
  if (run(command, args) !== 0) {
    process.stderr.write(`\n✗ ${name} failed\n`);
    process.stdout.write('0 passed, 1 failed\n');
    process.exit(1);
  }
}

const reports = mkdtempSync(path.join(os.tmpdir(), 'paybench-vitest-'));
/** Every failed test, named again at the end so the last lines of a long log say what broke. */
const failures = [];

function failuresOf(engine, report) {
  const cwd = process.cwd() + path.sep;
  return report.testResults.flatMap((file) => {
    const where = file.name.startsWith(cwd) ? file.name.slice(cwd.length) : file.name;
    const failed = file.assertionResults.filter((test) => test.status === 'failed');
    if (failed.length === 0 && file.status === 'failed') return [`${engine} ${where}: ${firstLine(file.message)}`];
    return failed.map((test) => `${engine} ${where} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
  });
}

function firstLine(text) {
  return (text ?? '').split('\n').find((line) => line.trim() !== '')?.trim().slice(0, 300) ?? '';
}

/** One vitest pass; returns its counts from the JSON reporter. */
function pass(engine, env, extraArgs) {
  process.stdout.write(`\n▶ tests on ${engine}\n`);
  const outputFile = path.join(reports, `${engine}.json`);
  const code = run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${outputFile}`, ...extraArgs], {
    env: { ...process.env, ...env },
  });
  let counts = { passed: 0, failed: 0, skipped: 0 };
  try {
    const report = JSON.parse(readFileSync(outputFile, 'utf8'));
    counts = { passed: report.numPassedTests, failed: report.numFailedTests, skipped: report.numPendingTests + report.numTodoTests };
    failures.push(...failuresOf(engine, report));
  } catch {
    counts.failed += 1; // no report: the run itself broke
  }
  if (code !== 0 && counts.failed === 0) counts.failed = 1;
  return counts;
}

/**
 * Browser tests drive the web app, which is the same on either engine; they all run on SQLite. On
 * Postgres the API, CLI and integration suites run in full (they are where the engines differ: row
 * security, notifications between nodes, the socket adapter), and of the browser tests only these,
 * which walk what the engine changes under the screens: signing in and its sessions, a sign-out
 * revoking every sign-in through the database's notifications, and the statement read offline.
 */
const POSTGRES_BROWSER_TESTS = ['web/test/signin.test.ts', 'web/test/ownPay.test.ts', 'web/test/totalRewards.test.ts'];

const results = [['sqlite', pass('sqlite', { TEST_DATABASE_URL: '' }, [])]];
if (process.env.TEST_DATABASE_URL) {
  // Pure unit tests (*.unit.test.ts) do not touch a database; the rest runs again on Postgres.
  process.stdout.write(`(Postgres: every API, CLI and integration test, and the browser tests ${POSTGRES_BROWSER_TESTS.map((file) => path.basename(file)).join(', ')})\n`);
  results.push(['postgres', pass('postgres', {}, ['api/', 'cli/', ...POSTGRES_BROWSER_TESTS, '--exclude', '**/*.unit.test.ts', '--exclude', '**/node_modules/**'])]);
} else if (process.env.CI) {
  process.stderr.write('\n✗ CI must run the Postgres pass: set TEST_DATABASE_URL.\n');
  results.push(['postgres', { passed: 0, failed: 1, skipped: 0 }]);
}

process.stdout.write('\n');
for (const failure of failures) process.stdout.write(`✗ ${failure}\n`);
let passed = 0;
let failed = 0;
let skipped = 0;
for (const [engine, counts] of results) {
  process.stdout.write(`${engine}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
  passed += counts.passed;
  failed += counts.failed;
  skipped += counts.skipped;
}
if (process.env.TEST_DATABASE_URL && !(results[1]?.[1].passed > 0)) {
  process.stderr.write('✗ The Postgres pass ran no test.\n');
  failed += 1;
}
if (skipped > 0) {
  process.stderr.write('✗ Tests were skipped; a skipped suite hides failures.\n');
  failed += 1;
}
process.stdout.write(`${passed} passed, ${failed} failed\n`);
process.exit(failed > 0 ? 1 : 0);
