import { JOB_FAMILIES, familyOfOccupation } from '../../reference/catalog/index.js';
import { readBlsOccupations } from '../generator/bls.js';
import { runInThread } from '../../threads/start.js';
import { TITLE_SYNONYMS } from './synonyms.js';

/**
 * The title index: what a job title names, read before anything fuzzy. Three sources, most trusted
 * first — the hand-written synonyms (synonyms.ts), the catalog's family names and example titles, and
 * the SOC occupation titles of the BLS file the product ships, each with the family its occupation
 * weighs most in (families.ts is the occupation → family map) or no family. A title that names an
 * occupation no family covers ("nurse" is in "Registered Nurses", "Nurse Practitioners", …) is a
 * known "no match", not a guess.
 *
 * Titles are compared as sets of normalised words: lower case, hyphens joined ("front-end" is
 * "frontend"), plurals made singular, abbreviations spelled out, and filler words dropped. A query is
 * read whole first and then without its level words ("Senior Backend Developer II" as "backend
 * developer"), each time:
 *  1. a title with exactly its words;
 *  2. the most specific titles whose words it contains ("python backend developer" ⊇ "backend developer");
 *  3. the titles containing all its words ("nurse" ⊆ "registered nurse"), when they agree on one family
 *     or on none.
 * Anything else is left to the fuzzy search, which answers only above MINIMUM_FUZZY_SCORE.
 */

/** Below this fuzzy score (1 is exact, 0 nothing in common) a title search answers "no match". */
export const MINIMUM_FUZZY_SCORE = 0.55;

export type TitleSource = 'synonym' | 'catalog' | 'occupation';

export interface TitleEntry {
  /** As written in its source. */
  title: string;
  words: readonly string[];
  /** Null: an occupation no catalog family covers. */
  jobFamilyId: string | null;
  levelId: string | null;
  source: TitleSource;
}

/** What the index says about a title; `unknown` when it has no opinion and the fuzzy search decides. */
export type TitleReading =
  | { kind: 'family'; jobFamilyId: string; levelId: string | null; entry: TitleEntry }
  | { kind: 'no_family'; entry: TitleEntry }
  | { kind: 'unknown' };

const ABBREVIATIONS: Readonly<Record<string, string>> = {
  sr: 'senior',
  snr: 'senior',
  jr: 'junior',
  mgr: 'manager',
  mngr: 'manager',
  engr: 'engineer',
  eng: 'engineer',
  dev: 'developer',
  devs: 'developer',
};
const FILLER = new Set(['and', 'of', 'the', 'for', 'in', 'a', 'an', 'at', 'to', 'with']);
const JOINED: readonly [string, string][] = [
  ['full stack', 'fullstack'],
  ['front end', 'frontend'],
  ['back end', 'backend'],
  ['dev ops', 'devops'],
];
/** Words that say a level, not a job: left out of the second reading. */
const LEVEL_WORDS = new Set([
  'senior', 'staff', 'principal', 'distinguished', 'fellow', 'junior', 'entry', 'level', 'graduate', 'intern', 'trainee', 'apprentice', 'lead',
  'manager', 'director', 'head', 'vice', 'president', 'svp', 'evp', 'vp', 'i', 'ii', 'iii', 'iv', 'v', 'sr', 'jr',
]);

function singular(word: string): string {
  if (word.length <= 3 || word.endsWith('ss') || word.endsWith('us') || word.endsWith('is')) return word;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  return word.endsWith('s') ? word.slice(0, -1) : word;
}

/** A title's words as the index compares them. */
export function normalisedWords(title: string): string[] {
  let text = ` ${title.toLowerCase().replace(/[-‐‑–—/]+/g, '').replace(/&/g, '').replace(/[^a-z0-9]+/g, ' ')} `;
  for (const [apart, joined] of JOINED) text = text.replaceAll(` ${apart} `, ` ${joined} `);
  return text
    .trim()
    .split(' ')
    .filter(Boolean)
    .flatMap((word) => (ABBREVIATIONS[word] ?? word).split(' '))
    .filter((word) => !FILLER.has(word))
    .map(singular);
}

/** The same words without the ones that only say a level. */
export function jobWords(words: readonly string[]): string[] {
  return words.filter((word) => !LEVEL_WORDS.has(word));
}

const PRIORITY: Record<TitleSource, number> = { synonym: 0, catalog: 1, occupation: 2 };
const keyOf = (words: readonly string[]): string => [...new Set(words)].sort().join(' ');


/**
 * "Sales Representatives, Wholesale and Manufacturing, …" is searched as "Sales Representatives";
 * the residual "…, All Other" occupations name no job anyone searches for and are left out.
 */
function occupationTitle(title: string): string | null {
  if (/all other/i.test(title)) return null;
  return title.split(',')[0]?.trim() || null;
}

function buildEntries(): TitleEntry[] {
  const byKey = new Map<string, TitleEntry>();
  const add = (title: string, jobFamilyId: string | null, levelId: string | null, source: TitleSource) => {
    const words = normalisedWords(title);
    // An occupation title of level words alone ("Directors, Religious Activities…" read as "Directors") names no job.
    if (words.length === 0 || (source === 'occupation' && jobWords(words).length === 0)) return;
    const key = keyOf(words);
    const existing = byKey.get(key);
    // The same words from several sources: the most trusted one speaks for them.
    if (existing && PRIORITY[existing.source] <= PRIORITY[source]) return;
    byKey.set(key, { title, words, jobFamilyId, levelId, source });
  };
  for (const synonym of TITLE_SYNONYMS) add(synonym.title, synonym.jobFamilyId, synonym.levelId ?? null, 'synonym');
  for (const family of JOB_FAMILIES) {
    add(family.name, family.id, null, 'catalog');
    for (const title of family.exampleTitles) add(title, family.id, null, 'catalog');
  }
  const families = familyOfOccupation();
  for (const occupation of readBlsOccupations().values()) {
    const title = occupationTitle(occupation.title);
    if (title) add(title, families.get(occupation.code) ?? null, null, 'occupation');
  }
  return [...byKey.values()];
}

let entries: TitleEntry[] | undefined;
let exact: Map<string, TitleEntry> | undefined;

/** Every entry of the index (built once per process from the shipped BLS file). */
export function titleEntries(): readonly TitleEntry[] {
  entries ??= buildEntries();
  return entries;
}

function exactIndex(): Map<string, TitleEntry> {
  exact ??= new Map(titleEntries().map((entry) => [keyOf(entry.words), entry]));
  return exact;
}

/**
 * Builds the index now, so that no search waits for it. Reading the BLS file takes the best part of
 * a second, so it is read on a thread: the server keeps answering while it starts.
 */
export async function warmTitleIndex(): Promise<void> {
  if (entries) return;
  const built = await runInThread<TitleEntry[]>(import.meta.url, 'indexThread', undefined);
  entries ??= built;
}

function answer(entry: TitleEntry): TitleReading {
  return entry.jobFamilyId ? { kind: 'family', jobFamilyId: entry.jobFamilyId, levelId: entry.levelId, entry } : { kind: 'no_family', entry };
}

/** Among equally good entries: one answer when they agree (the most trusted speaks), none when they do not. */
function agreed(candidates: TitleEntry[]): TitleReading {
  if (candidates.length === 0) return { kind: 'unknown' };
  const families = new Set(candidates.map((entry) => entry.jobFamilyId));
  if (families.size !== 1) return { kind: 'unknown' };
  const best = [...candidates].sort((a, b) => PRIORITY[a.source] - PRIORITY[b.source] || a.words.length - b.words.length)[0] as TitleEntry;
  return answer(best);
}

function readWords(words: readonly string[]): TitleReading {
  if (words.length === 0) return { kind: 'unknown' };
  const found = exactIndex().get(keyOf(words));
  if (found) return answer(found);
  const query = new Set(words);
  const all = titleEntries();
  // 2. The most specific titles inside the query.
  const inside = all.filter((entry) => entry.words.every((word) => query.has(word)));
  if (inside.length) {
    const most = Math.max(...inside.map((entry) => new Set(entry.words).size));
    const reading = agreed(inside.filter((entry) => new Set(entry.words).size === most));
    if (reading.kind !== 'unknown') return reading;
  }
  // 3. The titles the query is part of.
  return agreed(all.filter((entry) => words.every((word) => entry.words.includes(word))));
}

/** What the index says a title names: a family (and a level, where the title says one), no family, or nothing. */
export function readTitle(title: string): TitleReading {
  const words = normalisedWords(title);
  const whole = readWords(words);
  if (whole.kind !== 'unknown') return whole;
  const job = jobWords(words);
  return job.length && job.length < words.length ? readWords(job) : whole;
}
