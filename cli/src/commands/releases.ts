import type { components } from '../../../openapi.js';
import { call, createApi } from '../client.js';
import { waitForJob } from '../jobs.js';
import { Failed, RejectedInput, hint, printJson, printTable } from '../output.js';
import type { CommandContext } from './users.js';

type Release = components['schemas']['MarketRelease'];

const stateOf = (release: Release): string => [release.status, release.serving ? 'serving' : '', release.pinned ? 'pinned' : ''].filter(Boolean).join(', ');
const privacyOf = (release: Release): string => (!release.privacyScorecard ? 'not scored' : release.privacyScorecard.passed ? 'passed' : 'failed');

/** Every market release, newest first (internal admins). */
export async function listReleasesCommand(ctx: CommandContext): Promise<void> {
  const releases = (await call(ctx.connection, createApi(ctx.connection).GET('/api/internal/market/releases'))).data;
  if (ctx.output.json) return printJson(releases);
  printTable(
    ['ID', 'VERSION', 'STATE', 'PRIVACY', 'RECORDS', 'COMPANIES', 'BUILT'],
    releases.map((r) => [r.id, r.version, stateOf(r), privacyOf(r), String(r.recordCount), String(r.companyCount), r.builtAt.slice(0, 19).replace('T', ' ')]),
  );
  if (!releases.length) hint('No release has been built yet: `paybench admin releases build`.');
}

const wholeNumber = (name: string, value: string, min: number, max: number): number => {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < min || n > max) throw new RejectedInput(`--${name} must be a whole number from ${min} to ${max}, not "${value}".`);
  return n;
};

/** Builds a draft release as a background job and, unless --no-wait, follows it to its end. */
export async function buildReleaseCommand(ctx: CommandContext, options: { seed: string; records: string; wait: boolean }): Promise<void> {
  const body = { seed: wholeNumber('seed', options.seed, 1, 2147483647), records: wholeNumber('records', options.records, 0, 2000000) };
  const job = (await call(ctx.connection, createApi(ctx.connection).POST('/api/internal/market/releases', { body }))).data;
  if (!options.wait) {
    if (ctx.output.json) return printJson(job);
    process.stdout.write(`${job.id}\n`);
    return hint('Building in the background: `paybench jobs watch <id>` follows it.');
  }
  const ended = await waitForJob(ctx.connection, job.id, 'Building the release');
  if (ended.status !== 'succeeded') throw new Failed(`The build ${ended.status}${ended.message ? `: ${ended.message}` : ''}.`);
  const releases = (await call(ctx.connection, createApi(ctx.connection).GET('/api/internal/market/releases'))).data;
  const built = releases[0];
  if (ctx.output.json) return printJson(built ?? null);
  if (built) {
    process.stdout.write(`${built.id}\n`);
    hint(`Built release ${built.version} as a draft (privacy ${privacyOf(built)}). Publish it with \`paybench admin releases publish ${built.id}\`.`);
  }
}

export async function publishReleaseCommand(ctx: CommandContext, releaseId: string): Promise<void> {
  const release = (await call(ctx.connection, createApi(ctx.connection).POST('/api/internal/market/releases/{releaseId}/publish', { params: { path: { releaseId } } }))).data;
  if (ctx.output.json) return printJson(release);
  process.stdout.write(`${release.id} ${stateOf(release)}\n`);
}

export async function pinReleaseCommand(ctx: CommandContext, releaseId: string): Promise<void> {
  const release = (await call(ctx.connection, createApi(ctx.connection).POST('/api/internal/market/releases/{releaseId}/pin', { params: { path: { releaseId } } }))).data;
  if (ctx.output.json) return printJson(release);
  process.stdout.write(`${release.id} ${stateOf(release)}\n`);
}
