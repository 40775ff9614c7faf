import Fuse from 'fuse.js';
import { JOB_FAMILIES, LEVELS, findJobFamily, type JobFamily } from '../../reference/catalog/index.js';
import { MINIMUM_FUZZY_SCORE, readTitle } from '../titles/index.js';

/**
 * Reading a job title: which catalog family it names and which level its words say. Titles are
 * messy ("Sr. Backend Eng II", "Seniour Product Designer"): families come from the title index
 * (titles/index.ts: synonyms, the catalog's titles, the BLS occupation titles) and, where it has no
 * opinion, from Fuse over the catalog's names and example titles above a minimum score; level words
 * are corrected towards the catalog's level vocabulary before the rules below read them.
 */

const ABBREVIATIONS: Readonly<Record<string, string>> = {
  sr: 'senior',
  snr: 'senior',
  jr: 'junior',
  mgr: 'manager',
  mngr: 'manager',
  dir: 'director',
  engr: 'engineer',
  eng: 'engineer',
  svp: 'senior vice president',
  evp: 'executive vice president',
  vp: 'vice president',
  avp: 'director',
  assoc: 'associate',
  prin: 'principal',
};

/** Words that say a level; the catalog's level titles are made of them. */
const LEVEL_WORDS = [
  'senior', 'staff', 'principal', 'distinguished', 'fellow', 'junior', 'associate', 'entry', 'graduate', 'intern', 'trainee', 'apprentice',
  'lead', 'manager', 'director', 'head', 'chief', 'vice', 'president', 'executive', 'founder', 'specialist', 'group',
];
const levelWordSearch = new Fuse(LEVEL_WORDS, { threshold: 0.25, distance: 100, includeScore: true });
const ROMAN: Readonly<Record<string, string>> = { i: 'p2', ii: 'p3', iii: 'p4', iv: 'p5', v: 'p6' };
const C_LEVEL = new Set(['ceo', 'cto', 'cfo', 'coo', 'cpo', 'cmo', 'cro', 'cio', 'cdo', 'cso', 'cco', 'clo', 'ciso', 'chro']);

/** Lower-case words with abbreviations spelled out and misspelt level words corrected. */
export function titleWords(title: string): string[] {
  const raw = title.toLowerCase().replace(/[^a-z0-9&]+/g, ' ').trim().split(' ').filter(Boolean);
  return raw.flatMap((word) => {
    const expanded = ABBREVIATIONS[word];
    if (expanded) return expanded.split(' ');
    if (word.length <= 3 || LEVEL_WORDS.includes(word)) return [word];
    const hit = levelWordSearch.search(word)[0];
    return [hit ? hit.item : word];
  });
}

/** Titles where "manager" names an individual contributor, not a people manager. */
const IC_MANAGER_PHRASES = [
  'product manager', 'program manager', 'project manager', 'success manager', 'account manager', 'partnerships manager',
  'development manager', 'marketing manager', 'communications manager', 'pr manager', 'implementation manager', 'office manager',
];
const SUPPORT_WORDS = ['specialist', 'representative', 'agent', 'coordinator', 'assistant', 'technician', 'administrator', 'associate'];

export type TitleStrength = 'explicit' | 'default';

export interface TitleLevel {
  levelId: string;
  strength: TitleStrength;
  /** The words that decided it, as they read after correction. */
  phrase: string | null;
}

const supports = (family: JobFamily | undefined, track: string): boolean =>
  family?.trackSupport.some((t) => t.trackUpstreamId === track && t.status !== 'not_in_catalog') ?? false;

/** The level a title's words say, for a family (which decides whether a support track exists). */
export function levelFromTitle(title: string, family: JobFamily | undefined): TitleLevel {
  const words = titleWords(title);
  const text = ` ${words.join(' ')} `;
  const has = (phrase: string): boolean => text.includes(` ${phrase} `);
  const explicit = (levelId: string, phrase: string): TitleLevel => ({ levelId, strength: 'explicit', phrase });
  const cLevel = words.find((w) => C_LEVEL.has(w));
  if (has('chief') || cLevel || has('founder') || (has('president') && !has('vice president'))) return explicit('e9', has('chief') ? 'chief' : (cLevel ?? (has('founder') ? 'founder' : 'president')));
  if (has('senior vice president') || has('executive vice president')) return explicit('e8', has('senior vice president') ? 'senior vice president' : 'executive vice president');
  if (has('vice president')) return explicit('e7', 'vice president');
  if (has('senior director')) return explicit('m6', 'senior director');
  if (has('director') || has('head of') || has('head')) return explicit('m5', has('director') ? 'director' : 'head of');
  const icManager = IC_MANAGER_PHRASES.find((phrase) => has(phrase));
  if (has('manager') && !icManager) {
    if (has('senior manager') || has('group') || has('senior')) return explicit('m4', has('group') ? 'group manager' : 'senior manager');
    return explicit('m3', 'manager');
  }
  if (has('group') && icManager) return explicit('m4', `group ${icManager}`);
  const support = supports(family, 'tr_s') && SUPPORT_WORDS.some(has) && !icManager;
  if (support) {
    const word = SUPPORT_WORDS.find(has) ?? null;
    if (has('senior') || has('lead')) return explicit('s3', `senior ${word ?? ''}`.trim());
    if (has('junior') || has('entry') || (has('associate') && word !== 'associate')) return explicit('s1', 'junior');
    return { levelId: 's2', strength: word === 'associate' ? 'explicit' : 'default', phrase: word };
  }
  if (has('distinguished') || has('fellow')) return explicit('p6', has('fellow') ? 'fellow' : 'distinguished');
  if (has('principal')) return explicit('p6', 'principal');
  if (has('staff')) return explicit('p5', 'staff');
  if (has('senior') || has('lead')) return explicit('p4', has('senior') ? 'senior' : 'lead');
  for (const word of ['intern', 'graduate', 'entry', 'trainee', 'apprentice']) if (has(word)) return explicit('p1', word);
  if (has('junior') || has('associate')) return explicit('p2', has('junior') ? 'junior' : 'associate');
  const roman = words.at(-1);
  if (roman && ROMAN[roman] && words.length > 1) return explicit(ROMAN[roman]!, roman.toUpperCase());
  return { levelId: 'p3', strength: 'default', phrase: null };
}

interface FamilyDocument {
  family: JobFamily;
  name: string;
  titles: string[];
}

const FAMILY_DOCUMENTS: FamilyDocument[] = JOB_FAMILIES.map((family) => ({ family, name: family.name, titles: family.exampleTitles }));
// The spec's fuzzy-search constants; a title is compared with the titles people hire for first.
const familySearch = new Fuse(FAMILY_DOCUMENTS, {
  threshold: 0.6,
  distance: 100,
  includeScore: true,
  includeMatches: true,
  keys: [
    { name: 'titles', weight: 3 },
    { name: 'name', weight: 2 },
  ],
});

/** Level words say nothing about the family: "Senior Staff Backend Engineer" is searched as "backend engineer". */
// "Account Executive", "Support Specialist" and "Sales Associate" keep the word: there it names the job.
const NOT_FAMILY_WORDS = new Set([...LEVEL_WORDS.filter((w) => !['executive', 'specialist', 'associate'].includes(w)), 'i', 'ii', 'iii', 'iv', 'v', 'of', 'the']);

export interface FamilyMatch {
  family: JobFamily;
  /** 1 is an exact match, 0 none. */
  score: number;
  matched: string;
  /** The level the title index gives the title, when it names one (e.g. "Engineering Manager": m3). */
  levelId: string | null;
}

/** A title the index knows as an occupation no catalog family covers ("Nurse": "Registered Nurses"). */
export interface OutsideCatalog {
  family: null;
  matched: string;
}

/** The family a title names, a known occupation outside the catalog, or null when nothing matches well enough. */
export function readFamilyOfTitle(title: string): FamilyMatch | OutsideCatalog | null {
  const reading = readTitle(title);
  if (reading.kind === 'no_family') return { family: null, matched: reading.entry.title };
  const indexed = reading.kind === 'family' ? findJobFamily(reading.jobFamilyId) : undefined;
  if (reading.kind === 'family' && indexed) return { family: indexed, score: 1, matched: reading.entry.title, levelId: reading.levelId };
  const words = titleWords(title);
  const cLevel = words.find((w) => C_LEVEL.has(w));
  // A C-level title names its function by its letters, which the catalog lists among example titles.
  const query = cLevel && words.length <= 2 ? cLevel : words.filter((w) => !NOT_FAMILY_WORDS.has(w)).join(' ');
  if (!query) return null;
  const hit = familySearch.search(query)[0];
  if (!hit) return null;
  const score = Math.round((1 - (hit.score ?? 1)) * 1000) / 1000;
  if (score < MINIMUM_FUZZY_SCORE) return null;
  const matched = hit.matches?.[0]?.value ?? hit.item.name;
  return { family: hit.item.family, score, matched, levelId: null };
}

/** The family a title names, or null (outside the catalog, or no good match). */
export function familyFromTitle(title: string): FamilyMatch | null {
  const read = readFamilyOfTitle(title);
  return read === null || read.family === null ? null : read;
}

/** Levels in rank order within a track, for reading pay against. */
export function levelsOfTrack(track: string): string[] {
  return LEVELS.filter((l) => l.track === track).map((l) => l.id);
}
