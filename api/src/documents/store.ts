import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { writeAtVersion } from '../kernel/versions.js';

export interface DocumentTemplateRow {
  id: string;
  company_id: string;
  key: string;
  title: string;
  body: string;
  version: number;
  updated_by: string | null;
  created_at: string | Date;
  updated_at: string | Date;
}

export interface DocumentVersionRow {
  id: string;
  company_id: string;
  template_id: string;
  template_version: number;
  subject_type: string;
  subject_id: string;
  title: string;
  variables: string;
  content: string;
  html: string;
  html_sha256: string;
  created_by: string | null;
  created_at: string | Date;
}

/** What drawing a PDF needs of a version (not its HTML). */
export type VersionForPdf = Pick<DocumentVersionRow, 'id' | 'title' | 'content' | 'subject_type' | 'subject_id' | 'created_at'>;
/** A version in a list: everything but its content. */
export type VersionSummaryRow = Omit<DocumentVersionRow, 'variables' | 'content' | 'html'>;

const templatesOf = (db: Knex, scope: CompanyScope) => db<DocumentTemplateRow>('document_templates').where('company_id', scope.companyId);
const versionsOf = (db: Knex, scope: CompanyScope) => db<DocumentVersionRow>('document_versions').where('company_id', scope.companyId);

export async function findTemplateByKey(db: Knex, scope: CompanyScope, key: string): Promise<DocumentTemplateRow | undefined> {
  return templatesOf(db, scope).where({ key }).first();
}

export async function findTemplate(db: Knex, scope: CompanyScope, id: string): Promise<DocumentTemplateRow | undefined> {
  return templatesOf(db, scope).where({ id }).first();
}

/** Inserts unless the company has a template of that key already (a concurrent first use); true when inserted. */
export async function insertTemplateIfAbsent(db: Knex, row: DocumentTemplateRow): Promise<boolean> {
  await db('document_templates').insert(row).onConflict(['company_id', 'key']).ignore();
  return (await db('document_templates').where({ id: row.id }).first('id')) !== undefined;
}

/** Changes a template only at the version the caller read; false when it changed first (or is not there). */
export async function updateTemplate(db: Knex, scope: CompanyScope, id: string, version: number, changes: Pick<DocumentTemplateRow, 'title' | 'body' | 'updated_by' | 'updated_at'>): Promise<boolean> {
  return writeAtVersion(() => templatesOf(db, scope).where({ id }), version, changes);
}

// Versions have 13 columns: 50 rows stay far below either engine's limit of bound parameters.
const INSERT_CHUNK = 50;

/** Versions are only ever inserted; nothing here updates one (and a trigger refuses it). */
export async function insertVersions(db: Knex, rows: DocumentVersionRow[]): Promise<void> {
  for (let at = 0; at < rows.length; at += INSERT_CHUNK) await db('document_versions').insert(rows.slice(at, at + INSERT_CHUNK));
}

export async function findVersion(db: Knex, scope: CompanyScope, id: string): Promise<DocumentVersionRow | undefined> {
  return versionsOf(db, scope).where({ id }).first();
}

export async function versionsForPdf(db: Knex, scope: CompanyScope, ids: string[]): Promise<VersionForPdf[]> {
  if (!ids.length) return [];
  return versionsOf(db, scope).whereIn('id', ids).select('id', 'title', 'content', 'subject_type', 'subject_id', 'created_at');
}

/** A subject's documents with the values they were issued with (not their content), newest first. */
export async function listVersionsWithVariables(db: Knex, scope: CompanyScope, subjectType: string, subjectId: string): Promise<(VersionSummaryRow & Pick<DocumentVersionRow, 'variables'>)[]> {
  return versionsOf(db, scope)
    .where({ subject_type: subjectType, subject_id: subjectId })
    .select('id', 'company_id', 'template_id', 'template_version', 'subject_type', 'subject_id', 'title', 'variables', 'html_sha256', 'created_by', 'created_at')
    .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]);
}

/** A subject's documents, newest first. */
export async function listVersions(db: Knex, scope: CompanyScope, subjectType: string, subjectId: string): Promise<VersionSummaryRow[]> {
  return versionsOf(db, scope)
    .where({ subject_type: subjectType, subject_id: subjectId })
    .select('id', 'company_id', 'template_id', 'template_version', 'subject_type', 'subject_id', 'title', 'html_sha256', 'created_by', 'created_at')
    .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]);
}
