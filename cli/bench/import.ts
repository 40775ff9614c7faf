// Measures `paybench users import` of 100,000 people against a fresh server on SQLite, through the real binary.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { replaceUserRoles } from '../../api/src/access/store.js';
import { hashToken, newTokenSecret, tokenPrefix } from '../../api/src/access/tokens.js';
import { insertUser } from '../../api/src/access/usersStore.js';
import { insertCompany } from '../../api/src/companies/service.js';
import { loadConfig } from '../../api/src/config.js';
import { newId } from '../../api/src/db/ids.js';
import { startServer } from '../../api/src/server.js';

const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 100_000);
const MANAGERS = 500;
const BUDGET_SECONDS = 60;
const BIN = path.resolve(import.meta.dirname, '..', 'bin', 'paybench.js');

function peopleCsv(count: number): string {
  const email = (i: number) => `person-${String(i).padStart(6, '0')}@bench.test`;
  const lines = ['email,firstName,lastName,roles,manager'];
  for (let i = 0; i < count; i += 1) {
    const roles = i < MANAGERS ? 'people_manager;employee' : 'employee';
    const manager = i < MANAGERS ? '' : email(i % MANAGERS);
    lines.push(`${email(i)},Given${i},Family${i},${roles},${manager}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Asynchronous on purpose: the server runs in this process and must keep serving meanwhile. */
async function timed(args: string[], env: NodeJS.ProcessEnv): Promise<{ seconds: number; stdout: string }> {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (code !== 0) throw new Error(`paybench ${args.join(' ')} exited ${code}: ${stderr}`);
  return { seconds, stdout: stdout.trim() };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'paybench-bench-'));
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const config = loadConfig({ ...inherited, PAYBENCH_DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', PAYBENCH_SEED_DEMO: 'false' });
  const server = await startServer(config);
  try {
    const db = server.deps.db;
    const company = await insertCompany(db, { name: 'Bench Imports' });
    const adminId = newId();
    await insertUser(db, { id: adminId, email: 'admin@bench-admin.test', company_id: company.id, first_name: 'Bench', last_name: 'Admin', email_verified: true });
    await replaceUserRoles(db, { companyId: company.id }, adminId, [company.roleIds.get('admin') ?? '']);
    const token = newTokenSecret();
    await db('api_tokens').insert({ id: newId(), company_id: company.id, user_id: adminId, name: 'bench', token_hash: hashToken(token), token_prefix: tokenPrefix(token), created_at: new Date().toISOString() });

    const file = path.join(dir, 'people.csv');
    writeFileSync(file, peopleCsv(PEOPLE));
    const env = { ...process.env, PAYBENCH_URL: server.url, PAYBENCH_TOKEN: token, NO_COLOR: '1', XDG_CONFIG_HOME: dir };

    const first = await timed(['users', 'import', file], env);
    const again = await timed(['users', 'import', file], env);
    process.stdout.write(`users import, ${PEOPLE} people, SQLite (${config.engine}), through the paybench binary\n`);
    process.stdout.write(`  first run   ${first.seconds.toFixed(1)} s  (${first.stdout})\n`);
    process.stdout.write(`  second run  ${again.seconds.toFixed(1)} s  (${again.stdout})\n`);
    process.stdout.write(`  budget      ${BUDGET_SECONDS} s  ${first.seconds <= BUDGET_SECONDS ? 'met' : 'MISSED'}\n`);
    if (first.seconds > BUDGET_SECONDS) process.exitCode = 1;
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
