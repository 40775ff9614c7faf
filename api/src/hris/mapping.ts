import Fuse from 'fuse.js';
import { type FieldDefinition, type FieldName, type PeopleImportKind, fieldsOf } from './fields.js';

/** Paybench field → the file's column header. */
export type ColumnMapping = Partial<Record<FieldName, string>>;

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

interface Candidate {
  column: string;
  field: FieldName;
  score: number;
  order: number;
}

function namesOf(definition: FieldDefinition): string[] {
  return [definition.field, definition.label, ...definition.aliases];
}

/**
 * Suggests which column fills which field: exact matches of known header names first, then the
 * closest fuzzy match; each field and each column is used at most once, best matches first.
 */
export function suggestMapping(columns: string[], kind: PeopleImportKind): ColumnMapping {
  const fields = fieldsOf(kind);
  const exact = new Map<string, FieldName>();
  for (const definition of fields) for (const name of namesOf(definition)) if (!exact.has(compact(name))) exact.set(compact(name), definition.field);
  const fuse = new Fuse(
    fields.flatMap((definition) => namesOf(definition).map((name) => ({ field: definition.field, words: headerWords(name) }))),
    { keys: ['words'], includeScore: true, threshold: FUZZY_THRESHOLD, ignoreLocation: true, distance: 100 },
  );
  const candidates: Candidate[] = [];
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
  const mapping: ColumnMapping = {};
  const usedColumns = new Set<string>();
  for (const candidate of candidates) {
    if (mapping[candidate.field] !== undefined || usedColumns.has(candidate.column)) continue;
    mapping[candidate.field] = candidate.column;
    usedColumns.add(candidate.column);
  }
  // Field order, so the suggestion reads like the field list.
  return Object.fromEntries(fields.flatMap((definition) => (mapping[definition.field] !== undefined ? [[definition.field, mapping[definition.field]]] : []))) as ColumnMapping;
}

export function missingRequired(mapping: ColumnMapping, kind: PeopleImportKind): FieldName[] {
  return fieldsOf(kind)
    .filter((definition) => definition.required && !mapping[definition.field])
    .map((definition) => definition.field);
}

/** Problems with a mapping against a file's columns: fields of the other kind, columns the file lacks, required fields left out. */
export function mappingProblems(mapping: ColumnMapping, kind: PeopleImportKind, columns: string[] | undefined): { field: string; message: string }[] {
  const known = new Set(fieldsOf(kind).map((definition) => definition.field));
  const problems: { field: string; message: string }[] = [];
  const usedBy = new Map<string, string>();
  for (const [field, column] of Object.entries(mapping)) {
    if (!known.has(field as FieldName)) problems.push({ field: `mapping.${field}`, message: `is not a field of ${kind === 'employees' ? 'employee' : 'equity-grant'} imports` });
    else if (columns && !columns.includes(column)) problems.push({ field: `mapping.${field}`, message: `the file has no column "${column}"` });
    else if (usedBy.has(column)) problems.push({ field: `mapping.${field}`, message: `column "${column}" is already mapped to ${usedBy.get(column)}` });
    usedBy.set(column, field);
  }
  for (const field of missingRequired(mapping, kind)) problems.push({ field: `mapping.${field}`, message: 'is required: name the column that holds it' });
  return problems;
}
