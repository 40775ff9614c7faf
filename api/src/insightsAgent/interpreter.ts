import type { components } from '../contract-types.js';
import { COMPANY_STAGES, JOB_FAMILIES, LOCATIONS, OWNERSHIP_GROUPS, findLevel } from '../reference/catalog/index.js';
import { formatMajor, minorOf, formatMoney as writeMoney } from '../money/format.js';
import type { AgentToolName, ToolCaller, ToolResult } from './tools.js';

/**
 * The built-in interpreter: answers the common question forms deterministically, through the same
 * contract operations a model would call, and says plainly what it cannot answer. Words are read
 * against the product's own vocabulary (the market catalog's families, levels and locations; the
 * departments the team view reports), never against data the asker may not see.
 */

type Schemas = components['schemas'];
type Money = Schemas['Money'];
type Row = Schemas['TeamEmployeeRow'];

export interface InterpretedAnswer {
  text: string;
  /** The operations whose answers the text's numbers come from, in the order they were used. */
  cited: AgentToolName[];
}

const WHAT_I_ANSWER =
  'I can answer: how pay at a job family, level and location compares to the market ("How does our P3 engineering pay compare to the market in New York?"), who is below or above their band ("Who is below band in Sales?"), what a merit budget would cost ("What would a 4% merit budget cost?"), and headcounts ("How many employees are in Engineering?").';

/** Family words people use for a family whose name they do not say in full. */
const FAMILY_WORDS: Record<string, string> = {
  engineering: 'software_engineering',
  engineers: 'software_engineering',
  engineer: 'software_engineering',
  software: 'software_engineering',
  product: 'product_management',
  pm: 'product_management',
  designers: 'design',
  data: 'data_science',
  sales: 'sales',
  marketing: 'marketing',
  finance: 'finance',
  recruiting: 'recruiting',
  legal: 'legal',
};

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const mentions = (question: string, phrase: string): boolean => new RegExp(`(^|[^a-z0-9])${escape(phrase.toLowerCase())}($|[^a-z0-9])`).test(question);

function findFamily(question: string): { id: string; name: string } | undefined {
  const byName = [...JOB_FAMILIES].sort((a, b) => b.name.length - a.name.length).find((family) => mentions(question, family.name));
  if (byName) return { id: byName.id, name: byName.name };
  for (const [word, id] of Object.entries(FAMILY_WORDS)) {
    const family = JOB_FAMILIES.find((candidate) => candidate.id === id);
    if (family && mentions(question, word)) return { id: family.id, name: family.name };
  }
  return undefined;
}

function findLevelIn(question: string): { id: string; name: string } | undefined {
  const match = /\b([psme])\s?(\d{1,2})\b/.exec(question);
  if (!match) return undefined;
  const id = `${match[1]}${match[2]}`;
  return findLevel(id) ? { id, name: id.toUpperCase() } : undefined;
}

function findLocationIn(question: string): { id: string; name: string } | undefined {
  const names = LOCATIONS.flatMap((location) => [location.paybenchLocationName, ...location.locationAliases].map((name) => ({ name, location })));
  const found = names.sort((a, b) => b.name.length - a.name.length).find((candidate) => candidate.name.length > 2 && mentions(question, candidate.name));
  return found ? { id: found.location.paybenchLocationId, name: found.location.paybenchLocationName } : undefined;
}

function findPercent(question: string): number | undefined {
  const match = /(\d+(?:\.\d+)?)\s*(%|percent\b|per cent\b)/.exec(question);
  return match ? Number(match[1]) : undefined;
}

/** An amount in a currency's minor units, written for people ("$1,234,567.89"; whole units: "$1,234,568"). */
export const formatMoney = (money: Money, whole = false): string => writeMoney(money, whole ? 'whole' : 'minor');

const count = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

const messageOf = (result: ToolResult): string => {
  const body = result.body as { message?: unknown } | undefined;
  return typeof body?.message === 'string' ? body.message : `It answered ${result.status}.`;
};

/** What the asker is told when an operation refused them: plainly, with the server's own words. */
function refusal(result: ToolResult, what: string): string {
  if (result.status === 403) return `You cannot see ${what}: ${messageOf(result)} I only see what you may see.`;
  if (result.status === 404) return `I cannot see ${what}: ${messageOf(result)}`;
  if (result.status === 0) return `I could not reach the product's API to read ${what}.`;
  return `I could not read ${what}: ${messageOf(result)}`;
}

const ok = (result: ToolResult): boolean => result.status >= 200 && result.status < 300;
const dataOf = <T>(result: ToolResult): T => (result.body as { data: T }).data;

async function overview(call: ToolCaller): Promise<ToolResult> {
  return call('getTeamOverview', { status: 'active' });
}

/** Every row of the team table matching the filters (pages followed). */
async function tableRows(call: ToolCaller, filters: Record<string, unknown>, columns: string[]): Promise<{ result: ToolResult; rows: Row[]; columns: string[] }> {
  const rows: Row[] = [];
  let cursor: string | null = null;
  let result: ToolResult;
  let shown: string[] = [];
  let pages = 0;
  do {
    result = await call('getTeamEmployeeTable', { ...filters, columns, limit: 500, ...(cursor ? { cursor } : {}) });
    if (!ok(result)) return { result, rows, columns: shown };
    const page = result.body as { data: Schemas['TeamTable']; page: Schemas['Page'] };
    shown = page.data.columns.map((column) => column.key);
    rows.push(...page.data.rows);
    cursor = page.page.nextCursor;
    pages += 1;
  } while (cursor && pages < 20);
  return { result, rows, columns: shown };
}

function findDepartment(question: string, team: Schemas['TeamOverview']): string | undefined {
  const departments = team.byDepartment.flatMap((entry) => (entry.id ? [entry.id] : []));
  return [...departments].sort((a, b) => b.length - a.length).find((name) => mentions(question, name));
}

async function budgetCost(question: string, percent: number, call: ToolCaller): Promise<InterpretedAnswer> {
  const bp = Math.round(percent * 100);
  const team = await overview(call);
  if (!ok(team)) return { text: refusal(team, "your company's employees"), cited: [] };
  const teamData = dataOf<Schemas['TeamOverview']>(team);
  const department = findDepartment(question, teamData);
  if (department) {
    const { result, rows, columns } = await tableRows(call, { department: [department], status: 'active' }, ['name', 'baseSalary']);
    if (!ok(result)) return { text: refusal(result, `the employees of ${department}`), cited: ['getTeamOverview'] };
    if (!columns.includes('baseSalary')) {
      return { text: `You can see ${count(rows.length, 'active employee')} in ${department}, but not their pay, so I cannot cost a budget for them.`, cited: ['getTeamOverview', 'getTeamEmployeeTable'] };
    }
    const byCurrency = new Map<string, { base: number; people: number }>();
    for (const row of rows) {
      if (!row.baseSalary) continue;
      const entry = byCurrency.get(row.baseSalary.currency) ?? { base: 0, people: 0 };
      entry.base += row.baseSalary.amount;
      entry.people += 1;
      byCurrency.set(row.baseSalary.currency, entry);
    }
    if (!byCurrency.size) return { text: `None of the ${count(rows.length, 'active employee')} in ${department} you can see has a base salary on record.`, cited: ['getTeamEmployeeTable'] };
    const parts = [...byCurrency.entries()].map(
      ([currency, entry]) =>
        `${formatMoney({ amount: Math.round((entry.base * bp) / 10_000), currency })} on ${formatMoney({ amount: entry.base, currency })} of annual base (${count(entry.people, 'employee')} paid in ${currency})`,
    );
    return {
      text: `A ${percent}% merit budget for ${department} would cost ${parts.join(', plus ')}. That is ${percent}% of the base salary of every active employee in ${department} you can see who has one.`,
      cited: ['getTeamOverview', 'getTeamEmployeeTable'],
    };
  }
  const payroll = teamData.payroll;
  if (!payroll) return { text: `You can see ${count(teamData.headcount, 'active employee')}, but not their pay, so I cannot cost a merit budget.`, cited: ['getTeamOverview'] };
  const cost = { amount: Math.round((payroll.annualBase.amount * bp) / 10_000), currency: payroll.annualBase.currency };
  const rates = payroll.rates.length ? ` Amounts in other currencies were converted at the reference rates of ${[...new Set(payroll.rates.map((rate) => rate.date))].join(', ')}.` : '';
  const left = payroll.unconverted.length ? ` Pay in ${payroll.unconverted.join(', ')} has no reference rate and is left out.` : '';
  return {
    text: `A ${percent}% merit budget would cost ${formatMoney(cost)}: ${percent}% of ${formatMoney(payroll.annualBase)} of annual base salary across the ${count(payroll.employees, 'active employee')} with a base salary in your reach.${rates}${left}`,
    cited: ['getTeamOverview'],
  };
}

async function bandPosition(question: string, call: ToolCaller): Promise<InterpretedAnswer> {
  const wanted: 'below' | 'above' | 'outside' = /\b(below|under|beneath)\b/.test(question) ? 'below' : /\b(above|over)\b/.test(question) ? 'above' : 'outside';
  const team = await overview(call);
  if (!ok(team)) return { text: refusal(team, "your company's employees"), cited: [] };
  const department = findDepartment(question, dataOf<Schemas['TeamOverview']>(team));
  const family = department ? undefined : findFamily(question);
  const filters = department ? { department: [department] } : family ? { jobFamily: [family.id] } : {};
  const scope = department ?? family?.name ?? 'the company';
  const { result, rows, columns } = await tableRows(call, { ...filters, status: 'active' }, ['name', 'title', 'baseSalary', 'bandPosition']);
  if (!ok(result)) return { text: refusal(result, `the employees of ${scope}`), cited: ['getTeamOverview'] };
  const cited: AgentToolName[] = ['getTeamOverview', 'getTeamEmployeeTable'];
  if (!columns.includes('bandPosition')) return { text: `You can see ${count(rows.length, 'active employee')} in ${scope}, but not their pay, so I cannot say where they sit in their bands.`, cited };
  if (rows.every((row) => row.bandPosition === null || row.bandPosition === undefined)) return { text: `There is no live band set yet, so no one in ${scope} has a band position.`, cited };
  const positioned = rows.filter((row) => row.bandPosition?.position);
  const hits = positioned.filter((row) => (wanted === 'outside' ? row.bandPosition?.position !== 'inside' : row.bandPosition?.position === wanted));
  const where = wanted === 'outside' ? 'outside their band' : `${wanted} their band`;
  const unplaced = rows.length - positioned.length;
  const note = unplaced ? ` ${count(unplaced, 'employee')} ${unplaced === 1 ? 'has' : 'have'} no band position (no band for their job and zone, or no base salary).` : '';
  if (!hits.length) return { text: `No one of the ${count(positioned.length, 'active employee')} with a band position in ${scope} is ${where}.${note}`, cited };
  const lines = hits.map((row) => {
    const band = row.bandPosition?.band;
    const edge = band ? (row.bandPosition?.position === 'below' ? `minimum ${formatMoney(band.min, true)}` : `maximum ${formatMoney(band.max, true)}`) : '';
    const base = row.baseSalary ? formatMoney(row.baseSalary, true) : 'no base';
    return `- ${row.name ?? row.id}${row.title ? `, ${row.title}` : ''}: ${base}, ${row.bandPosition?.position} the band (${edge}, compa-ratio ${row.bandPosition?.compaRatio?.toFixed(2) ?? 'n/a'})`;
  });
  return { text: `${count(hits.length, 'employee')} of ${positioned.length} with a band position in ${scope} ${hits.length === 1 ? 'is' : 'are'} ${where}:\n${lines.join('\n')}${note ? `\n${note.trim()}` : ''}`, cited };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : Math.round(((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2);
};

async function marketComparison(question: string, call: ToolCaller): Promise<InterpretedAnswer> {
  const family = findFamily(question);
  const level = findLevelIn(question);
  const location = findLocationIn(question);
  const missing = [family ? '' : 'a job family (e.g. engineering)', level ? '' : 'a level (e.g. P3)', location ? '' : 'a location (e.g. New York)'].filter(Boolean);
  if (!family || !level || !location) return { text: `To compare pay with the market I need ${missing.join(', ')} in the question.`, cited: [] };
  const cell = `${family.name} ${level.name} in ${location.name}`;
  const market = await call('queryMarketData', {
    compensationTypes: ['base'],
    marketFilters: [{ locations: [location.id], companyStages: COMPANY_STAGES.map((stage) => stage.id), companyOwnershipGroups: OWNERSHIP_GROUPS.map((group) => group.id), industries: ['ind_all'] }],
    jobFamilies: [family.id],
    levels: [{ type: 'level', id: level.id }],
    percentiles: [25, 50, 75],
  });
  if (!ok(market)) return { text: refusal(market, `market data for ${cell}`), cited: [] };
  const result = dataOf<Schemas['BenchmarkResult']>(market);
  const marketCell = result.cells[0];
  const cited: AgentToolName[] = ['queryMarketData'];
  let marketText: string;
  let p50: Money | undefined;
  if (!marketCell || marketCell.status !== 'published' || !marketCell.percentiles || !marketCell.currency) {
    marketText = `The market withholds base salary for ${cell} (${marketCell?.label ?? 'Insufficient data'}): ${marketCell?.insufficientReason ?? 'too few companies or employees to publish it'}.`;
  } else {
    const currency = marketCell.currency;
    const valueAt = (p: number): number => marketCell.percentiles?.find((entry) => entry.percentile === p)?.value ?? 0;
    // Shown in whole units, rounded once from the market's figure (not again from cents: 139,242.497 is $139,242).
    const shown = (p: number): string => formatMajor(Math.round(valueAt(p)), currency);
    p50 = { amount: minorOf(valueAt(50), currency), currency };
    marketText = `The market's base salary for ${cell} (release ${result.releaseVersion}): p25 ${shown(25)}, p50 ${shown(50)}, p75 ${shown(75)}, from ${marketCell.sample.companyBucket.label} companies and ${marketCell.sample.employeeBucket.label} employees${marketCell.consistency ? ` (consistency: ${marketCell.consistency.consistencyLabel})` : ''}.`;
  }
  const { result: team, rows, columns } = await tableRows(call, { jobFamily: [family.id], level: [level.id], location: [location.id], status: 'active' }, ['name', 'baseSalary', 'compaRatio']);
  if (!ok(team)) return { text: `${marketText} ${refusal(team, `your own employees at ${cell}`)}`, cited };
  cited.push('getTeamEmployeeTable');
  if (!rows.length) return { text: `${marketText} You have no active employees at ${cell} that you can see.`, cited };
  if (!columns.includes('baseSalary')) return { text: `${marketText} You can see ${count(rows.length, 'employee')} at ${cell}, but not their pay.`, cited };
  const paid = rows.flatMap((row) => (row.baseSalary ? [row.baseSalary] : []));
  const currency = p50?.currency ?? paid[0]?.currency;
  const same = paid.filter((money) => money.currency === currency).map((money) => money.amount);
  if (!same.length || !currency) return { text: `${marketText} None of your ${count(rows.length, 'employee')} at ${cell} has a base salary on record.`, cited };
  const ours = { amount: median(same), currency };
  const ratios = rows.flatMap((row) => (typeof row.compaRatio?.ratio === 'number' ? [row.compaRatio.ratio] : []));
  const average = ratios.length ? ratios.reduce((sum, ratio) => sum + ratio, 0) / ratios.length : undefined;
  const gap = p50 ? ` That is ${Math.abs(Math.round(((ours.amount - p50.amount) / p50.amount) * 1000) / 10)}% ${ours.amount >= p50.amount ? 'above' : 'below'} the market's p50.` : '';
  const compa = average !== undefined ? ` Their average compa-ratio to the market p50 is ${average.toFixed(2)}.` : '';
  return { text: `${marketText} Your ${count(same.length, 'employee')} there ${same.length === 1 ? 'is' : 'are'} paid a median base of ${formatMoney(ours, true)}.${gap}${compa}`, cited };
}

async function headcount(question: string, call: ToolCaller): Promise<InterpretedAnswer> {
  const team = await overview(call);
  if (!ok(team)) return { text: refusal(team, "your company's employees"), cited: [] };
  const data = dataOf<Schemas['TeamOverview']>(team);
  const department = findDepartment(question, data);
  if (department) {
    const entry = data.byDepartment.find((candidate) => candidate.id === department);
    return { text: `There ${entry?.count === 1 ? 'is' : 'are'} ${count(entry?.count ?? 0, 'active employee')} in ${department} that you can see.`, cited: ['getTeamOverview'] };
  }
  const level = findLevelIn(question);
  const family = findFamily(question);
  const location = findLocationIn(question);
  const breakdown = family
    ? data.byJobFamily.find((entry) => entry.id === family.id)
    : level
      ? data.byLevel.find((entry) => entry.id === level.id)
      : location
        ? data.byLocation.find((entry) => entry.id === location.id)
        : undefined;
  const label = family?.name ?? level?.name ?? location?.name;
  if (label) return { text: `There ${breakdown?.count === 1 ? 'is' : 'are'} ${count(breakdown?.count ?? 0, 'active employee')} in ${label} that you can see.`, cited: ['getTeamOverview'] };
  return { text: `There ${data.headcount === 1 ? 'is' : 'are'} ${count(data.headcount, 'active employee')} that you can see.`, cited: ['getTeamOverview'] };
}

/** Answers a question through the operations `call` reaches, or says what it can answer instead. */
export async function interpret(question: string, call: ToolCaller): Promise<InterpretedAnswer> {
  const text = question.toLowerCase();
  const percent = findPercent(text);
  if (percent !== undefined && /\b(budget|merit|raise|raises|increase|cost)\b/.test(text)) return budgetCost(text, percent, call);
  if (/\bbands?\b/.test(text)) return bandPosition(text, call);
  if (/\b(market|benchmark|benchmarks|compare|compares|p50|median)\b/.test(text)) return marketComparison(text, call);
  if (/\b(how many|headcount|number of|count)\b/.test(text)) return headcount(text, call);
  return { text: `I cannot answer that with the built-in interpreter. ${WHAT_I_ANSWER}`, cited: [] };
}
