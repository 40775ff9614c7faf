import { call, createApi } from '../client.js';
import { RejectedInput, printJson, printTable } from '../output.js';
import type { CommandContext } from './users.js';

/** The catalog's job families, then the family blend groups with the families each unites. */
export async function catalogFamiliesCommand(ctx: CommandContext): Promise<void> {
  const catalog = (await call(ctx.connection, createApi(ctx.connection).GET('/api/benchmarking/catalog/families'))).data;
  if (ctx.output.json) return printJson(catalog);
  printTable(
    ['ID', 'NAME', 'BLEND GROUP', 'SEARCHABLE'],
    catalog.jobFamilies.map((family) => [family.id, family.name, family.familyBlendGroupUpstreamId, family.isFamilySearchable ? 'yes' : 'no']),
  );
  process.stdout.write('\n');
  printTable(
    ['BLEND GROUP', 'NAME', 'FAMILIES'],
    catalog.familyBlendGroups.map((group) => [group.id, group.name, group.associatedFamilies.join(',')]),
  );
}

const KINDS = ['region', 'country', 'tier', 'metro'] as const;
type Kind = (typeof KINDS)[number];
const isKind = (value: string): value is Kind => (KINDS as readonly string[]).includes(value);

/** The catalog's locations with the served release's coverage of each. */
export async function catalogLocationsCommand(ctx: CommandContext, options: { kind?: string }): Promise<void> {
  const kind = options.kind?.trim().toLowerCase();
  if (kind !== undefined && !isKind(kind)) throw new RejectedInput(`--kind must be one of ${KINDS.join(', ')}, not "${options.kind}".`);
  const answer = (await call(ctx.connection, createApi(ctx.connection).GET('/api/benchmarking/catalog/locations', { params: { query: kind ? { kind } : {} } }))).data;
  if (ctx.output.json) return printJson(answer);
  printTable(
    ['ID', 'NAME', 'KIND', 'CURRENCY', 'METROS', 'COVERAGE', 'EMPLOYEES', 'COMP TYPES'],
    answer.locations.map((l) => [
      l.paybenchLocationId,
      l.paybenchLocationName,
      l.kind,
      l.currencyCode,
      String(l.metroListCount),
      l.coverageLabel,
      l.employeeCountBucket.label,
      l.compTypesEnabled.join(',') || '-',
    ]),
  );
}
