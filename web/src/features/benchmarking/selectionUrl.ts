import {
  type BenchmarkingFilters,
  type EmploymentType,
  type LevelChoice,
  type MarketSelection,
  type Selection,
  defaultPercentiles,
  defaultSelection,
  isMarketPercentile,
  samePercentiles,
} from './selection';

/*
 * The data explorer's selection in the URL's query, short and stable: the same selection always
 * reads the same, and ids are the catalog's ([a-z0-9_]). What equals the defaults is left out.
 *
 *   f=software_engineering,technical_writing       job families (always present: it marks a selection)
 *   l=p3,p6,~p3_p4                                  levels; a level blend starts with ~
 *   m=840_1;s:seed,series_a                         one per market: its locations, then what differs
 *                                                   from every industry group (i:), stage (s:),
 *                                                   ownership group (o:), its founder types (t:), and
 *                                                   whose pay when contractors are included (e:)
 *   c=base,total_equity                             compensation types
 *   e=a:intended;v:value;t:at_grant;u:4y            equity options, when not the defaults
 *   p=25,50                                         percentiles, when not the defaults of the types
 *   cur=USD                                         US dollars (local currency is left out)
 */

const list = (ids: readonly string[]) => ids.map(encodeURIComponent).join(',');
const parseList = (text: string): string[] => (text === '' ? [] : text.split(',').map(decodeURIComponent));
const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id) => b.includes(id));

function allOf(filters: BenchmarkingFilters) {
  return {
    i: filters.industriesAndSubIndustriesWithIds.map((industry) => industry.upstreamId),
    s: filters.companyStagesWithIds.map((stage) => stage.id),
    o: filters.companyOwnershipGroupsWithIds.map((group) => group.id),
  };
}

function encodeMarket(market: MarketSelection, filters: BenchmarkingFilters): string {
  const all = allOf(filters);
  const parts = [list(market.locations)];
  if (!sameSet(market.industries, all.i)) parts.push(`i:${list(market.industries)}`);
  if (!sameSet(market.companyStages, all.s)) parts.push(`s:${list(market.companyStages)}`);
  if (!sameSet(market.companyOwnershipGroups, all.o)) parts.push(`o:${list(market.companyOwnershipGroups)}`);
  if (market.founderTypes.length > 0) parts.push(`t:${list(market.founderTypes)}`);
  if (market.employmentTypes?.includes('contractor')) parts.push(`e:${list(market.employmentTypes)}`);
  return parts.join(';');
}

function decodeMarket(text: string, filters: BenchmarkingFilters): MarketSelection {
  const [locations = '', ...rest] = text.split(';');
  const all = allOf(filters);
  const market: MarketSelection = { locations: parseList(locations), industries: all.i, companyStages: all.s, companyOwnershipGroups: all.o, founderTypes: [], employmentTypes: [] };
  for (const part of rest) {
    const [key, value = ''] = [part.slice(0, part.indexOf(':')), part.slice(part.indexOf(':') + 1)];
    if (key === 'i') market.industries = parseList(value);
    else if (key === 's') market.companyStages = parseList(value);
    else if (key === 'o') market.companyOwnershipGroups = parseList(value);
    else if (key === 't') market.founderTypes = parseList(value);
    else if (key === 'e') market.employmentTypes = parseList(value).filter(isEmploymentType);
  }
  return market;
}

const isEmploymentType = (id: string): id is EmploymentType => id === 'employee' || id === 'contractor';

const EQUITY_KEYS = { a: 'intendedVsActual', v: 'views', t: 'timeframes', u: 'unvestedTimeframes' } as const;

/** The selection as a query string (without the "?"). */
export function encodeSelection(selection: Selection, filters: BenchmarkingFilters): string {
  const defaults = defaultSelection(filters);
  const levels = selection.levels.map((level) => (level.type === 'levelBlend' ? `~${encodeURIComponent(level.id)}` : encodeURIComponent(level.id))).join(',');
  const params = [`f=${list(selection.jobFamilies)}`, `l=${levels}`, ...selection.markets.map((market) => `m=${encodeMarket(market, filters)}`), `c=${list(selection.compensationTypes)}`];
  const equity = (Object.entries(EQUITY_KEYS) as [keyof typeof EQUITY_KEYS, (typeof EQUITY_KEYS)[keyof typeof EQUITY_KEYS]][])
    .filter(([, field]) => !sameSet(selection.equity[field], defaults.equity[field]))
    .map(([key, field]) => `${key}:${list(selection.equity[field])}`);
  if (equity.length > 0) params.push(`e=${equity.join(';')}`);
  if (!samePercentiles(selection.percentiles, defaultPercentiles(selection.compensationTypes, filters))) {
    params.push(`p=${[...selection.percentiles].sort((a, b) => a - b).join(',')}`);
  }
  if (selection.currency === 'USD') params.push('cur=USD');
  return params.join('&');
}

/** The selection a query string holds, or null when it holds none (no `f`). */
export function decodeSelection(search: string, filters: BenchmarkingFilters): Selection | null {
  const pairs = search
    .replace(/^\?/, '')
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf('=');
      return at < 0 ? [pair, ''] : [pair.slice(0, at), pair.slice(at + 1)];
    }) as [string, string][];
  const one = (key: string) => pairs.find(([name]) => name === key)?.[1];
  const families = one('f');
  if (families === undefined) return null;
  try {
    const defaults = defaultSelection(filters);
    const levels: LevelChoice[] = parseList(one('l') ?? '').map((id) => (id.startsWith('~') ? { type: 'levelBlend', id: id.slice(1) } : { type: 'level', id }));
    const compensationTypes = one('c') === undefined ? defaults.compensationTypes : parseList(one('c') ?? '');
    const equity = { ...defaults.equity };
    for (const part of (one('e') ?? '').split(';').filter(Boolean)) {
      const key = part.slice(0, part.indexOf(':'));
      if (key in EQUITY_KEYS) equity[EQUITY_KEYS[key as keyof typeof EQUITY_KEYS]] = parseList(part.slice(part.indexOf(':') + 1));
    }
    const percentiles = parseList(one('p') ?? '').map(Number).filter(isMarketPercentile);
    return {
      jobFamilies: parseList(families),
      levels,
      markets: pairs.filter(([name]) => name === 'm').map(([, value]) => decodeMarket(value, filters)),
      compensationTypes,
      equity,
      percentiles: percentiles.length > 0 ? [...new Set(percentiles)].sort((a, b) => a - b) : defaultPercentiles(compensationTypes, filters),
      currency: one('cur') === 'USD' ? 'USD' : 'local',
    };
  } catch {
    // A malformed escape in a hand-edited link: as if it held no selection.
    return null;
  }
}
