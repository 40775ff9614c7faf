import Fuse from 'fuse.js';

/*
 * Column mapping, the same for every file import: which column of the file fills which field of the
 * import. Each import names its fields (with the header names people and vendors use for them); the
 * suggestion and the checks of a mapping against a file are written once here.
 */

/** A field a file's column can fill: its name, label, the header names used for it, and whether a file must have it. */
export interface MappableField<Field extends string = string> {
  field: Field;
  label: string;
  required: boolean;
  /** Header names people use for it; matched exactly first, then fuzzily. */
  aliases: readonly string[];
}

/** Field → the file's column header. */
export type Mapping<Field extends string = string> = Partial<Record<Field, string>>;

export interface MappingProblem {
  field: string;
  message: string;
}

/** Lower-case words only: "Bonus %" and "bonus_percent" and "BONUS PERCENT" all read "bonus percent". */
export function headerWords(text: string): string {
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/%/g, ' percent ')
    .replace(/#/g, ' number ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

const compact = (text: string): string => headerWords(text).replace(/ /g, '');

// How close a header must be to an alias to be suggested. Looser than this and "Notes" becomes "Location".
const FUZZY_THRESHOLD = 0.34;

interface Candidate<Field> {
  column: string;
  field: Field;
  score: number;
  order: number;
}

const namesOf = (definition: MappableField): string[] => [definition.field, definition.label, ...definition.aliases];

/**
 * Suggests which column fills which field: exact matches of known header names first, then the
 * closest fuzzy match (fuse.js); each field and each column is used at most once, best matches first.
 * The suggestion lists the fields in the order given, so it reads like the field list.
 */
export function suggestMapping<Field extends string>(columns: readonly string[], fields: readonly MappableField<Field>[]): Mapping<Field> {
  // The fuzzy search takes tens of milliseconds of the event loop; a connection sends the same columns every sync.
  const kept = suggestions.get(fields) ?? new Map<string, Mapping>();
  suggestions.set(fields, kept);
  const key = JSON.stringify(columns);
  const known = kept.get(key);
  if (known) return { ...known } as Mapping<Field>;
  const mapping = suggestionOf(columns, fields);
  if (kept.size >= KEPT_SUGGESTIONS) kept.delete(kept.keys().next().value as string);
  kept.set(key, { ...mapping });
  return mapping;
}

/** Suggestions made, per field list and list of columns (the latest few). */
const suggestions = new WeakMap<readonly MappableField[], Map<string, Mapping>>();
const KEPT_SUGGESTIONS = 100;

function suggestionOf<Field extends string>(columns: readonly string[], fields: readonly MappableField<Field>[]): Mapping<Field> {
  const exact = new Map<string, Field>();
  for (const definition of fields) for (const name of namesOf(definition)) if (!exact.has(compact(name))) exact.set(compact(name), definition.field);
  const fuse = new Fuse(
    fields.flatMap((definition) => namesOf(definition).map((name) => ({ field: definition.field, words: headerWords(name) }))),
    { keys: ['words'], includeScore: true, threshold: FUZZY_THRESHOLD, ignoreLocation: true, distance: 100 },
  );
  const candidates: Candidate<Field>[] = [];
  columns.forEach((column, order) => {
    const known = exact.get(compact(column));
    if (known) {
      candidates.push({ column, field: known, score: 0, order });
      return;
    }
    const words = headerWords(column);
    if (words.length < 2) return;
    for (const hit of fuse.search(words, { limit: 3 })) candidates.push({ column, field: hit.item.field, score: hit.score ?? 1, order });
  });
  candidates.sort((a, b) => a.score - b.score || a.order - b.order);
  const chosen = new Map<Field, string>();
  const usedColumns = new Set<string>();
  for (const candidate of candidates) {
    if (chosen.has(candidate.field) || usedColumns.has(candidate.column)) continue;
    chosen.set(candidate.field, candidate.column);
    usedColumns.add(candidate.column);
  }
  const mapping: Mapping<Field> = {};
  for (const definition of fields) {
    const column = chosen.get(definition.field);
    if (column !== undefined) mapping[definition.field] = column;
  }
  return mapping;
}

/** Required fields the mapping leaves without a column. */
export function missingRequired<Field extends string>(mapping: Mapping<Field>, fields: readonly MappableField<Field>[]): Field[] {
  return fields.filter((definition) => definition.required && !mapping[definition.field]).map((definition) => definition.field);
}

export interface MappingCheck<Field extends string> {
  mapping: Mapping<Field>;
  fields: readonly MappableField<Field>[];
  /** The file's columns; without them (a mapping saved without a file) only fields are checked. */
  columns?: readonly string[];
  /** Put before each field in a problem's `field` ("mapping.", "body.mapping."). */
  prefix: string;
  /** The message for a field the import does not have; without it such fields are not looked for. */
  unknownField?: string;
}

/** Problems with a mapping against a file's columns: unknown fields, columns the file lacks or used twice, required fields left out. */
export function mappingProblems<Field extends string>(check: MappingCheck<Field>): MappingProblem[] {
  const known = new Set<string>(check.fields.map((definition) => definition.field));
  const problems: MappingProblem[] = [];
  const usedBy = new Map<string, string>();
  for (const [field, column] of Object.entries(check.mapping) as [string, string][]) {
    const at = `${check.prefix}${field}`;
    if (check.unknownField !== undefined && !known.has(field)) problems.push({ field: at, message: check.unknownField });
    else if (check.columns && !check.columns.includes(column)) problems.push({ field: at, message: `the file has no column "${column}"` });
    else if (usedBy.has(column)) problems.push({ field: at, message: `column "${column}" is already mapped to ${usedBy.get(column)}` });
    usedBy.set(column, field);
  }
  for (const field of missingRequired(check.mapping, check.fields)) problems.push({ field: `${check.prefix}${field}`, message: 'is required: name the column that holds it' });
  return problems;
}

/** The problems as one sentence, the way an import that cannot start says so. */
export function mappingMessage(problems: readonly MappingProblem[], prefix = ''): string {
  return `The column mapping does not fit the file: ${problems.map((p) => `${p.field.startsWith(prefix) ? p.field.slice(prefix.length) : p.field} ${p.message}`).join('; ')}.`;
}
