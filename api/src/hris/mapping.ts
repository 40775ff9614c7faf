import { type Mapping, type MappingProblem, missingRequired as missingOf, mappingProblems as problemsOf, suggestMapping as suggestOf } from '../kernel/files/mapping.js';
import { type FieldName, type PeopleImportKind, fieldsOf } from './fields.js';

/*
 * The people-data import's column mapping: the shared mapping (kernel/files/mapping.ts) over the
 * employee or equity-grant fields.
 */

/** Paybench field → the file's column header. */
export type ColumnMapping = Mapping<FieldName>;

/** Suggests which column fills which field of this kind of file (exact header names first, then fuzzy). */
export function suggestMapping(columns: string[], kind: PeopleImportKind): ColumnMapping {
  return suggestOf(columns, fieldsOf(kind));
}

export function missingRequired(mapping: ColumnMapping, kind: PeopleImportKind): FieldName[] {
  return missingOf(mapping, fieldsOf(kind));
}

/** Problems with a mapping against a file's columns: fields of the other kind, columns the file lacks, required fields left out. */
export function mappingProblems(mapping: ColumnMapping, kind: PeopleImportKind, columns: string[] | undefined): MappingProblem[] {
  const unknownField = `is not a field of ${kind === 'employees' ? 'employee' : 'equity-grant'} imports`;
  return problemsOf({ mapping, fields: fieldsOf(kind), prefix: 'mapping.', unknownField, ...(columns ? { columns } : {}) });
}
