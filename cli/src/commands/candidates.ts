import type { components } from '../../../openapi.js';
import { type Connection, call, createApi } from '../client.js';
import { RejectedInput, hint, printJson, printPairs, printTable } from '../output.js';
import type { CommandContext } from './users.js';

type Candidate = components['schemas']['Candidate'];
type CandidateUpdate = components['schemas']['CandidateUpdate'];
type CandidateStatus = components['schemas']['CandidateStatus'];

export interface CandidateUpdateOptions {
  email?: string;
  firstName?: string;
  lastName?: string;
  title?: string;
  currency?: string;
  status?: string;
  source?: string;
}

const STATUSES: readonly CandidateStatus[] = ['active', 'hired', 'withdrawn', 'archived'];

const nameOf = (candidate: Candidate): string => `${candidate.firstName} ${candidate.lastName}`.trim();

/** Candidates are known by e-mail; the API takes an id. Either is accepted. */
async function candidateOf(connection: Connection, wanted: string): Promise<Candidate> {
  const api = createApi(connection);
  if (wanted.includes('@')) {
    const found = (await call(connection, api.GET('/api/candidates', { params: { query: { search: wanted, limit: 50 } } }))).data.find((candidate) => candidate.email === wanted.toLowerCase());
    if (!found) throw new RejectedInput(`No candidate has the e-mail ${wanted}.`);
    return found;
  }
  return (await call(connection, api.GET('/api/candidates/{candidateId}', { params: { path: { candidateId: wanted } } }))).data;
}

export async function listCandidatesCommand(ctx: CommandContext, options: { search?: string }): Promise<void> {
  const candidates = (await call(ctx.connection, createApi(ctx.connection).GET('/api/candidates', { params: { query: { limit: 500, ...(options.search ? { search: options.search } : {}) } } }))).data;
  if (ctx.output.json) return printJson(candidates);
  if (!candidates.length) return hint(options.search ? `No candidate matches "${options.search}".` : 'No candidates yet.');
  printTable(
    ['ID', 'EMAIL', 'NAME', 'TITLE', 'STATUS'],
    candidates.map((candidate) => [candidate.id, candidate.email, nameOf(candidate), candidate.title, candidate.status]),
  );
}

export async function showCandidateCommand(ctx: CommandContext, wanted: string): Promise<void> {
  const candidate = await candidateOf(ctx.connection, wanted);
  if (ctx.output.json) return printJson(candidate);
  printPairs([
    ['Name', nameOf(candidate)],
    ['E-mail', candidate.email],
    ['Title', candidate.title || '–'],
    ['Status', candidate.status],
    ['Currency', candidate.currency],
    ['Source', candidate.source ?? '–'],
    ['Hired as', candidate.hiredEmployeeId ?? '–'],
    ['Added', candidate.createdAt.slice(0, 10)],
  ]);
}

function changesOf(options: CandidateUpdateOptions): CandidateUpdate {
  const status = options.status === undefined ? undefined : STATUSES.find((candidate) => candidate === options.status?.toLowerCase());
  if (options.status !== undefined && !status) throw new RejectedInput(`--status must be one of ${STATUSES.join(', ')}, not "${options.status}".`);
  const currency = options.currency?.trim().toUpperCase();
  if (currency !== undefined && !/^[A-Z]{3}$/.test(currency)) throw new RejectedInput(`--currency: "${options.currency}" is not a three-letter ISO 4217 code.`);
  const changes: CandidateUpdate = {
    ...(options.email !== undefined ? { email: options.email } : {}),
    ...(options.firstName !== undefined ? { firstName: options.firstName } : {}),
    ...(options.lastName !== undefined ? { lastName: options.lastName } : {}),
    ...(options.title !== undefined ? { title: options.title } : {}),
    ...(options.source !== undefined ? { source: options.source } : {}),
    ...(currency ? { currency } : {}),
    ...(status ? { status } : {}),
  };
  if (!Object.keys(changes).length) throw new RejectedInput('Say what to change: --email, --first-name, --last-name, --title, --currency, --status or --source.');
  return changes;
}

/** Changes a candidate at the version just read, so a change someone made meanwhile is refused, not overwritten. */
export async function updateCandidateCommand(ctx: CommandContext, wanted: string, options: CandidateUpdateOptions): Promise<void> {
  const changes = changesOf(options);
  const candidate = await candidateOf(ctx.connection, wanted);
  const updated = (
    await call(
      ctx.connection,
      createApi(ctx.connection).PATCH('/api/candidates/{candidateId}', { params: { path: { candidateId: candidate.id }, header: { 'If-Match': `"${candidate.version}"` } }, body: changes }),
    )
  ).data;
  if (ctx.output.json) return printJson(updated);
  process.stdout.write(`Updated ${nameOf(updated)} <${updated.email}>.\n`);
}

export async function deleteCandidateCommand(ctx: CommandContext, wanted: string): Promise<void> {
  const candidate = await candidateOf(ctx.connection, wanted);
  await call(ctx.connection, createApi(ctx.connection).DELETE('/api/candidates/{candidateId}', { params: { path: { candidateId: candidate.id } } }));
  if (ctx.output.json) return printJson({ deleted: candidate.id, email: candidate.email });
  process.stdout.write(`Removed the candidate ${nameOf(candidate)} <${candidate.email}>.\n`);
}
