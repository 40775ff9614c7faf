import { isoTimestamp } from '../db/timestamps.js';
import type { DocumentContent } from './content.js';
import type { DocumentTemplateRow, DocumentVersionRow, VersionSummaryRow } from './store.js';
import type { VariableKind, VariableValue } from './template.js';

export interface DocumentTemplate {
  id: string;
  key: string;
  title: string;
  body: string;
  version: number;
  /** The variables the template uses, by name, and how (text, or the rows of a table). */
  variables: { name: string; kind: VariableKind }[];
  updatedBy: string | null;
  updatedAt: string;
}

export interface DocumentVersionSummary {
  id: string;
  templateId: string;
  templateVersion: number;
  subjectType: string;
  subjectId: string;
  title: string;
  htmlSha256: string;
  createdBy: string | null;
  createdAt: string;
}

/** A document as issued: never changed after it is made. */
export interface DocumentVersion extends DocumentVersionSummary {
  variables: Record<string, VariableValue>;
  content: DocumentContent;
  html: string;
}

export function presentTemplate(row: DocumentTemplateRow, variables: ReadonlyMap<string, VariableKind>): DocumentTemplate {
  return {
    id: row.id,
    key: row.key,
    title: row.title,
    body: row.body,
    version: Number(row.version),
    variables: [...variables].map(([name, kind]) => ({ name, kind })),
    updatedBy: row.updated_by,
    updatedAt: isoTimestamp(row.updated_at),
  };
}

export function presentVersionSummary(row: VersionSummaryRow): DocumentVersionSummary {
  return {
    id: row.id,
    templateId: row.template_id,
    templateVersion: Number(row.template_version),
    subjectType: row.subject_type,
    subjectId: row.subject_id,
    title: row.title,
    htmlSha256: row.html_sha256,
    createdBy: row.created_by,
    createdAt: isoTimestamp(row.created_at),
  };
}

export function presentVersion(row: DocumentVersionRow): DocumentVersion {
  return {
    ...presentVersionSummary(row),
    variables: JSON.parse(row.variables) as Record<string, VariableValue>,
    content: JSON.parse(row.content) as DocumentContent,
    html: row.html,
  };
}

/** "Reward letter — Zoë Adams" → "reward-letter-zoe-adams": a file name any system accepts. */
export function fileStem(title: string): string {
  const stem = title
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  return stem || 'document';
}
