import type { components } from '../../../openapi.js';
import { call, createApi, type Connection } from '../client.js';
import { csvLine } from '../csv.js';
import { requireSuccess, saveDownload, waitForJob } from '../jobs.js';
import { Currencies } from '../money.js';
import { RejectedInput, hint, printJson, printTable } from '../output.js';
import type { CommandContext } from './users.js';

type BenchmarkRequest = components['schemas']['BenchmarkRequest'];
type BenchmarkResult = components['schemas']['BenchmarkResult'];
type CompositionEntry = components['schemas']['CompositionEntry'];
type MarketPercentile = components['schemas']['MarketPercentile'];

export interface QueryOptions {
  family: string[];
  level: string[];
  location: string[];
  industry?: string[];
  stage?: string[];
  ownership?: string[];
  compType: string[];
  percentiles?: string;
  currency?: string;
  /** Pool every --location into one market instead of one market per location. */
  blend?: boolean;
  /** Include contractors with the employees (the market is employees' pay unless asked). */
  contractors?: boolean;
}

/** One market of the request, by its `marketFilterIndex`: what its rows are labelled with. */
export interface Market {
  index: number;
  label: string;
  locations: string[];
}

/** The most markets one request may carry (the contract's `marketFilters` limit). */
const MAX_MARKETS = 10;

interface Catalog {
  filters: components['schemas']['BenchmarkingFilters'];
  families: CompositionEntry[];
  levels: CompositionEntry[];
  locations: CompositionEntry[];
}

async function catalog(connection: Connection): Promise<Catalog> {
  const api = createApi(connection);
  const [filters, jobs, places] = await Promise.all([
    call(connection, api.GET('/api/benchmarking/filters')),
    call(connection, api.GET('/api/benchmarking/data-composition/jobfamilies')),
    call(connection, api.GET('/api/benchmarking/data-composition/locations')),
  ]);
  return { filters: filters.data, families: jobs.data.jobFamilies, levels: jobs.data.levels, locations: places.data.locations };
}

/** People type names ("Software Engineering", "P3"); the API takes ids. Either is accepted, case-insensitively. */
function resolve(kind: string, wanted: string[], options: { id: string; name: string }[], problems: string[]): string[] {
  return wanted.flatMap((value) => {
    const lower = value.toLowerCase();
    const found = options.find((option) => option.id.toLowerCase() === lower || option.name.toLowerCase() === lower);
    if (!found) problems.push(`--${kind}: "${value}" is not one of the choices (see: paybench benchmark filters)`);
    return found ? [found.id] : [];
  });
}

function levelIds(filters: Catalog['filters']): { id: string; name: string; type: string }[] {
  const levels = filters.levelsWithIds.levelTracks.flatMap((track) => track.levels);
  return [...levels, ...filters.levelsWithIds.levelBlends].map((level) => ({ id: level.id, name: level.displayString, type: level.levelType }));
}

/** Only the percentiles the product publishes (the filters list them); any other is refused here, before asking. */
function percentilesOf(list: string, offered: MarketPercentile[], problems: string[]): MarketPercentile[] {
  return list.split(',').flatMap((text) => {
    const found = offered.find((p) => String(p) === text.trim());
    if (found === undefined) problems.push(`--percentiles: ${text.trim()} is not one of ${offered.join(', ')}`);
    return found === undefined ? [] : [found];
  });
}

/** `local`, or any currency the reference rates hold (written in any case). */
function currencyOf(code: string, rates: Record<string, number>, problems: string[]): string {
  if (code.toLowerCase() === 'local') return 'local';
  const upper = code.toUpperCase();
  if (upper !== 'USD' && rates[upper] === undefined) problems.push(`--currency: "${code}" has no exchange rate; choose local or one of: ${Object.keys(rates).join(', ')}`);
  return upper;
}

/** What the table calls the ids of the answer's cells ("Software Engineering" for software_engineering). */
interface Names {
  family: ReadonlyMap<string, string>;
  level: ReadonlyMap<string, string>;
  compType: ReadonlyMap<string, string>;
}

/**
 * Builds the data explorer's request from the options; defaults cover every industry, stage and
 * ownership group. Each --location is its own market (its own rows, in its own currency) unless
 * --blend pools them into one.
 */
async function buildRequest(connection: Connection, options: QueryOptions): Promise<{ request: BenchmarkRequest; markets: Market[]; names: Names }> {
  const { filters, families, locations } = await catalog(connection);
  const problems: string[] = [];
  const levels = levelIds(filters);
  const chosenLevels = resolve('level', options.level, levels, problems);
  const stages = filters.companyStagesWithIds.map((option) => ({ id: option.id, name: option.displayString }));
  const ownership = filters.companyOwnershipGroupsWithIds.map((option) => ({ id: option.id, name: option.displayString }));
  const industries = filters.industriesAndSubIndustriesWithIds.map((option) => ({ id: option.upstreamId, name: option.displayString }));
  const compTypes = [...filters.compTypes.cash, ...filters.compTypes.equity].map((option) => ({ id: option.id, name: option.title }));
  const places = [...new Set(resolve('location', options.location, locations, problems))];
  const nameOf = (id: string): string => locations.find((location) => location.id === id)?.name ?? id;
  const groups = options.blend ? [places] : places.map((place) => [place]);
  if (groups.length > MAX_MARKETS) problems.push(`--location: at most ${MAX_MARKETS} markets in one query (${groups.length} given); ask in parts, or pool them with --blend`);
  const narrowing = {
    // Every industry unless narrowed, as the data explorer starts: all the groups, which hold every sub-industry.
    industries: options.industry?.length ? resolve('industry', options.industry, industries, problems) : industries.map((option) => option.id),
    companyStages: options.stage?.length ? resolve('stage', options.stage, stages, problems) : stages.map((stage) => stage.id),
    companyOwnershipGroups: options.ownership?.length ? resolve('ownership', options.ownership, ownership, problems) : ownership.map((group) => group.id),
    ...(options.contractors ? { employmentTypes: ['employee' as const, 'contractor' as const] } : {}),
  };
  const request: BenchmarkRequest = {
    jobFamilies: resolve('family', options.family, families, problems),
    levels: chosenLevels.map((id) => ({ id, type: levels.find((level) => level.id === id)?.type ?? 'level' })),
    compensationTypes: resolve('comp-type', options.compType, compTypes, problems),
    marketFilters: groups.map((group) => ({ locations: group, ...narrowing })),
    ...(options.percentiles ? { percentiles: percentilesOf(options.percentiles, filters.percentiles, problems) } : {}),
    ...(options.currency ? { currency: currencyOf(options.currency, filters.currencyForexMapping, problems) } : {}),
  };
  if (problems.length) throw new RejectedInput('Some choices are not known.', problems);
  const markets = groups.map((group, index) => ({
    index,
    label: (group.length > 1 ? `Blend of ${group.map(nameOf).join(' + ')}` : nameOf(group[0] ?? '')) + (options.contractors ? ' (with contractors)' : ''),
    locations: group,
  }));
  const named = (entries: { id: string; name: string }[]) => new Map(entries.map((entry) => [entry.id, entry.name]));
  return { request, markets, names: { family: named(families), level: named(levels), compType: named(compTypes) } };
}

export async function filtersCommand(ctx: CommandContext): Promise<void> {
  const found = await catalog(ctx.connection);
  if (ctx.output.json) return printJson(found);
  const section = (title: string, entries: { id: string; name: string }[]) => {
    process.stdout.write(`${title}\n`);
    for (const entry of entries) process.stdout.write(`  ${entry.id.padEnd(28)} ${entry.name}\n`);
  };
  section('Job families (--family)', found.families);
  section('Levels (--level)', levelIds(found.filters));
  section('Locations (--location)', found.locations);
  section('Industries (--industry)', found.filters.industriesAndSubIndustriesWithIds.map((option) => ({ id: option.upstreamId, name: option.displayString })));
  section('Company stages (--stage)', found.filters.companyStagesWithIds.map((option) => ({ id: option.id, name: option.displayString })));
  section('Ownership (--ownership)', found.filters.companyOwnershipGroupsWithIds.map((option) => ({ id: option.id, name: option.displayString })));
  section('Compensation types (--comp-type)', [...found.filters.compTypes.cash, ...found.filters.compTypes.equity].map((option) => ({ id: option.id, name: option.title })));
  process.stdout.write(`Percentiles (--percentiles)\n  ${found.filters.percentiles.join(',')}\n`);
}

/**
 * A withheld cell's sample reads "Below the threshold": its size is not published, not even as a
 * range. DEMO says how much of a published cell is generated demo data (100% on the demo market).
 * The table is for reading: names, and amounts in whole units. The CSV is for a spreadsheet: each
 * name beside its id, and amounts in major units at the currency's precision. `--json` is the
 * API's answer, exact.
 */
function resultRows(result: BenchmarkResult, markets: Market[], names: Names, shape: { csv: boolean; currencies: Currencies }): { header: string[]; rows: string[][] } {
  const { csv, currencies } = shape;
  const named = (ids: ReadonlyMap<string, string>, id: string): string[] => (csv ? [id, ids.get(id) ?? id] : [ids.get(id) ?? id]);
  const idColumns = (title: string): string[] => (csv ? [`${title} ID`, title] : [title]);
  const header = ['LOCATION', ...idColumns('FAMILY'), ...idColumns('LEVEL'), ...idColumns('COMP TYPE'), 'CURRENCY', ...result.percentiles.map((p) => `P${p}`), 'COMPANIES', 'EMPLOYEES', 'CONSISTENCY', 'DEMO'];
  const amount = (value: number | undefined, cell: BenchmarkResult['cells'][number]): string => {
    if (value === undefined) return '';
    if (cell.unit !== 'currency' || !cell.currency) return String(value);
    return csv ? currencies.atPrecision(value, cell.currency) : Currencies.wholeMajor(value);
  };
  const rows = result.cells.map((cell) => {
    const values = new Map((cell.percentiles ?? []).map((p) => [p.percentile, p.value]));
    const percentiles = result.percentiles.map((p) => (cell.status === 'published' ? amount(values.get(p), cell) : (cell.label ?? 'Insufficient data')));
    const error = cell.medianUncertainty?.relativeError;
    // The label with the measured error of the median it stands on (its 95% interval, ±).
    const consistency = cell.consistency ? `${cell.consistency.consistencyLabel}${typeof error === 'number' ? ` ±${(error * 100).toFixed(1)}%` : ''}` : '';
    const demo = cell.syntheticShare === null ? '' : `${Math.round(cell.syntheticShare * 100)}%`;
    const market = markets.find((candidate) => candidate.index === cell.marketFilterIndex)?.label ?? String(cell.marketFilterIndex + 1);
    return [
      market,
      ...named(names.family, cell.jobFamilyId),
      ...named(names.level, cell.levelId),
      ...named(names.compType, cell.compensationTypeId),
      cell.currency ?? '',
      ...percentiles,
      cell.sample.companyBucket.label,
      cell.sample.employeeBucket.label,
      consistency,
      demo,
    ];
  });
  return { header, rows };
}

export async function queryCommand(ctx: CommandContext, options: QueryOptions & { csv?: boolean }): Promise<void> {
  const { request: body, markets, names } = await buildRequest(ctx.connection, options);
  const result = (await call(ctx.connection, createApi(ctx.connection).POST('/api/benchmarking/market-data', { body }))).data;
  // The answer as the API gives it, with the markets its cells' `marketFilterIndex` refers to.
  if (ctx.output.json) return printJson({ ...result, markets });
  const { header, rows } = resultRows(result, markets, names, { csv: Boolean(options.csv), currencies: await Currencies.load(ctx.connection) });
  if (options.csv) {
    process.stdout.write(`${[csvLine(header), ...rows.map(csvLine)].join('\n')}\n`);
    return;
  }
  printTable(header, rows);
  // Every withheld cell carries the same statement of the rule; said once, under the table.
  const statement = result.cells.find((cell) => cell.insufficientReason)?.insufficientReason;
  if (statement) process.stdout.write(`\nInsufficient data: ${statement}\n`);
  const rates = ratesLine(result);
  if (rates) process.stdout.write(`\n${rates}\n`);
}

/** The rates a converted answer used, with their date; a warning when they are old. */
export function ratesLine(result: BenchmarkResult): string | null {
  if (!result.exchangeRates.length) return null;
  const dates = [...new Set(result.exchangeRates.map((rate) => rate.date))].sort().join(' and ');
  const quoted = result.exchangeRates.filter((rate) => rate.currency !== 'USD').map((rate) => `1 USD = ${Number(rate.perUsd.toFixed(4))} ${rate.currency}`);
  const line = `Converted through USD with the ECB euro reference rates of ${dates}${quoted.length ? `: ${quoted.join(', ')}` : ''}.`;
  return result.exchangeRatesStale ? `${line} These rates are more than 30 days old: an internal admin can load newer ECB rates with 'paybench rates import <file>'.` : line;
}

export async function exportCommand(ctx: CommandContext, options: QueryOptions & { format: 'csv' | 'xlsx'; wait: boolean; output?: string }): Promise<void> {
  if (options.format !== 'csv' && options.format !== 'xlsx') throw new RejectedInput(`--format must be csv or xlsx, not "${String(options.format)}".`);
  const { request } = await buildRequest(ctx.connection, options);
  const started = (await call(ctx.connection, createApi(ctx.connection).POST('/api/benchmarking/market-data/exports', { body: { format: options.format, request } }))).data;
  if (!options.wait) {
    if (ctx.output.json) return printJson(started);
    process.stdout.write(`${started.id}\n`);
    return hint(`Follow it with: paybench jobs watch ${started.id}`);
  }
  const job = requireSuccess(await waitForJob(ctx.connection, started.id, 'Exporting market data'));
  await saveDownload(ctx.connection, job.downloadId, options.output);
  if (options.output) hint(`Wrote ${options.output}`);
}
