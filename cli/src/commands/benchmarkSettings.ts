import type { components } from '../../../openapi.js';
import { call, createApi } from '../client.js';
import { RejectedInput, printJson, printPairs } from '../output.js';
import type { CommandContext } from './users.js';

type Settings = components['schemas']['CompanyBenchmarkingSettings'];
type Location = Settings['location'];

const LOCATIONS: readonly Exclude<Location, null>[] = ['Europe', 'Canada', 'United States'];

export interface BenchmarkSettingsOptions {
  location?: string;
  overrideBase?: boolean;
  overrideEquity?: boolean;
  syntheticLocations?: boolean;
}

/** `paybench benchmark access`: whether benchmarking is on for the company, what the caller may do in it, and the release answers come from. */
export async function benchmarkAccessCommand(ctx: CommandContext): Promise<void> {
  const context = (await call(ctx.connection, createApi(ctx.connection).GET('/api/benchmarking/context'))).data;
  if (ctx.output.json) return printJson(context);
  const access = { none: 'none', view: 'view market data', edit: 'view market data, save reports and change the settings' }[context.access];
  printPairs([
    ['Benchmarking', context.switchedOn ? 'switched on' : 'switched off for your company'],
    ['Your access', `${access}${context.mayRequestAccess ? ' (ask your admins for access)' : ''}`],
    ['Preferred location', context.location ?? 'none chosen'],
    ['Market release', context.release ? `${context.release.version} (${context.release.id})` : 'none published yet'],
  ]);
}

function locationOption(value: string): Location {
  if (value.toLowerCase() === 'none') return null;
  const found = LOCATIONS.find((location) => location.toLowerCase() === value.toLowerCase());
  if (!found) throw new RejectedInput(`--location must be one of ${LOCATIONS.map((location) => `"${location}"`).join(', ')} or none, not "${value}".`);
  return found;
}

/** What the options change, over the settings as read; the API replaces the settings whole. */
function changed(current: Settings, options: BenchmarkSettingsOptions): Settings | null {
  const next: Settings = {
    location: options.location === undefined ? current.location : locationOption(options.location),
    overrideBaseCompensationRequirement: options.overrideBase ?? current.overrideBaseCompensationRequirement,
    overrideEquityRequirement: options.overrideEquity ?? current.overrideEquityRequirement,
    useSyntheticLocationInsightsData: options.syntheticLocations ?? current.useSyntheticLocationInsightsData,
  };
  const same = (Object.keys(next) as (keyof Settings)[]).every((key) => next[key] === current[key]);
  return same ? null : next;
}

/**
 * `paybench benchmark settings [--location …] [--[no-]override-base] …`: the company's benchmarking
 * settings; with options, changes those and keeps the rest (benchmarking edit access).
 */
export async function benchmarkSettingsCommand(ctx: CommandContext, options: BenchmarkSettingsOptions): Promise<void> {
  const api = createApi(ctx.connection);
  const current = (await call(ctx.connection, api.GET('/api/benchmarking/settings'))).data;
  const next = changed(current, options);
  const settings = next ? (await call(ctx.connection, api.PUT('/api/benchmarking/settings', { body: next }))).data : current;
  if (ctx.output.json) return printJson(settings);
  const yes = (value: boolean) => (value ? 'yes' : 'no');
  printPairs([
    ['Preferred location', settings.location ?? 'none chosen'],
    ['Override base compensation requirement', yes(settings.overrideBaseCompensationRequirement)],
    ['Override equity requirement', yes(settings.overrideEquityRequirement)],
    ['Synthetic location insights', yes(settings.useSyntheticLocationInsightsData)],
  ]);
  if (next) process.stderr.write('Saved the benchmarking settings.\n');
}
