import type { components } from '../../../openapi.js';
import { call, createApi } from '../client.js';
import { requireSuccess, saveDownload, waitForJob } from '../jobs.js';
import { RejectedInput, hint, printJson, printPairs, printTable } from '../output.js';
import { Currencies } from '../money.js';
import type { CommandContext } from './users.js';

type OfferState = components['schemas']['OfferState'];

const STATES: readonly OfferState[] = ['draft', 'pendingApproval', 'approved', 'sent', 'opened', 'accepted', 'declined', 'expired', 'rescinded', 'hireCancelled'];

export interface OffersListOptions {
  state?: string;
}

export interface OffersExportOptions {
  state?: string;
  format: string;
  wait: boolean;
  output?: string;
}

function stateOption(state: string | undefined): OfferState | undefined {
  if (state === undefined) return undefined;
  const found = STATES.find((candidate) => candidate.toLowerCase() === state.toLowerCase());
  if (!found) throw new RejectedInput(`--state must be one of ${STATES.join(', ')}, not "${state}".`);
  return found;
}

export async function listOffersCommand(ctx: CommandContext, options: OffersListOptions): Promise<void> {
  const state = stateOption(options.state);
  const offers = (await call(ctx.connection, createApi(ctx.connection).GET('/api/offers', { params: { query: state ? { state } : {} } }))).data;
  if (ctx.output.json) return printJson(offers);
  // A base salary reads in whole units, as on every screen.
  const currencies = await Currencies.load(ctx.connection);
  const amount = (money: components['schemas']['Money']) => currencies.whole(money);
  printTable(
    ['ID', 'CANDIDATE', 'TITLE', 'STATE', 'BASE', 'START', 'EXPIRES'],
    offers.map((offer) => [offer.id, `${offer.candidate.firstName} ${offer.candidate.lastName}`.trim() || offer.candidate.email, offer.title, offer.state, amount(offer.base), offer.startDate, offer.expiresOn]),
  );
  if (!offers.length) hint(state ? `No offers are ${state}.` : 'No offers yet.');
}

export async function exportOffersCommand(ctx: CommandContext, options: OffersExportOptions): Promise<void> {
  const format = options.format;
  if (format !== 'csv' && format !== 'xlsx') throw new RejectedInput(`--format must be csv or xlsx, not "${format}".`);
  if (format === 'xlsx' && !options.output && process.stdout.isTTY) throw new RejectedInput('An XLSX file is binary: name a file with --output.');
  const state = stateOption(options.state);
  const started = (await call(ctx.connection, createApi(ctx.connection).POST('/api/offers/exports', { body: { format, ...(state ? { state } : {}) } }))).data;
  if (!options.wait) {
    if (ctx.output.json) return printJson(started);
    process.stdout.write(`${started.id}\n`);
    return hint(`Follow it with: paybench jobs watch ${started.id}`);
  }
  const job = requireSuccess(await waitForJob(ctx.connection, started.id, 'Exporting offers'));
  await saveDownload(ctx.connection, job.downloadId, options.output);
  if (options.output) hint(`Wrote ${options.output}`);
}

/** `paybench offers letter OFFER`: the letter as the candidate sees it, read by the company (nothing is recorded as a view). */
export async function offerLetterCommand(ctx: CommandContext, offerId: string): Promise<void> {
  const letter = (await call(ctx.connection, createApi(ctx.connection).GET('/api/offers/{offerId}/letter', { params: { path: { offerId } } }))).data;
  if (ctx.output.json) return printJson(letter);
  const currencies = await Currencies.load(ctx.connection);
  const amount = (money: components['schemas']['Money'] | null) => (money ? currencies.whole(money) : '–');
  printPairs([
    ['Company', letter.company.name],
    ['Candidate', `${letter.candidate.firstName} ${letter.candidate.lastName}`.trim()],
    ['Title', letter.title],
    ['Location', letter.locationName],
    ['Start date', letter.startDate],
    ['Expires on', letter.expiresOn],
    ['State', letter.state],
    ...(letter.postedRange ? [['Posted range', `${amount(letter.postedRange.min)} – ${amount(letter.postedRange.max)}`] as [string, string]] : []),
  ]);
  printTable(
    ['PACKAGE', 'BASE', 'BONUS TARGET', 'VARIABLE', 'SIGN-ON', 'TOTAL CASH'],
    letter.packages.map((option) => [option.label, amount(option.package.base), amount(option.package.bonusTarget), amount(option.package.variable), amount(option.package.signOn), amount(option.package.totalCash)]),
  );
  if (letter.welcomeMessage) process.stdout.write(`\n${letter.welcomeMessage}\n`);
}
