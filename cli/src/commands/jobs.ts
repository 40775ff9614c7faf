import { call, createApi } from '../client.js';
import { isFinished, saveDownload, waitForJob } from '../jobs.js';
import { Failed, printJson, printTable } from '../output.js';
import type { CommandContext } from './users.js';

export async function listJobsCommand(ctx: CommandContext, options: { days?: string }): Promise<void> {
  const body = options.days ? { withinDays: Number(options.days) } : {};
  const jobs = (await call(ctx.connection, createApi(ctx.connection).POST('/api/me/background-jobs', { body }))).data;
  if (ctx.output.json) return printJson(jobs);
  printTable(
    ['ID', 'TYPE', 'STATUS', 'PROGRESS', 'CREATED', 'DOWNLOAD'],
    jobs.map((job) => [job.id, job.type, job.status, `${job.progress}%`, job.createdAt.slice(0, 19).replace('T', ' '), job.downloadId ?? '-']),
  );
}

/** Follows a job to its end; exit 1 when it failed or was cancelled. */
export async function watchJobCommand(ctx: CommandContext, jobId: string): Promise<void> {
  const job = await waitForJob(ctx.connection, jobId, `Job ${jobId.slice(-8)}`);
  if (ctx.output.json) printJson(job);
  else process.stdout.write(`${job.id} ${job.status}${job.downloadId ? ` (download ${job.downloadId})` : ''}\n`);
  if (job.status !== 'succeeded') throw new Failed(`Job ${job.id} ${job.status}${job.message ? `: ${job.message}` : ''}.`);
}

export async function cancelJobCommand(ctx: CommandContext, jobId: string): Promise<void> {
  const job = (await call(ctx.connection, createApi(ctx.connection).POST('/api/background-jobs/{jobId}/cancel', { params: { path: { jobId } } }))).data;
  if (ctx.output.json) return printJson(job);
  process.stdout.write(isFinished(job) ? `${job.id} ${job.status}\n` : `${job.id} will stop at its next step\n`);
}

export async function getDownloadCommand(ctx: CommandContext, downloadId: string, options: { output?: string }): Promise<void> {
  await saveDownload(ctx.connection, downloadId, options.output);
}
