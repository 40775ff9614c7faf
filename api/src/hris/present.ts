import type { components } from '../contract-types.js';
import type { FieldDefinition, PeopleImportKind } from './fields.js';
import { type ColumnMapping, missingRequired, suggestMapping } from './mapping.js';
import type { RowError } from './rows.js';
import type { ImportFileRow, MappingRow, RunRow } from './store.js';

type Schemas = components['schemas'];

const iso = (value: string | Date): string => new Date(value).toISOString();
const isoOrNull = (value: string | Date | null): string | null => (value === null ? null : iso(value));

export function presentField(definition: FieldDefinition): Schemas['PeopleImportField'] {
  return {
    field: definition.field,
    label: definition.label,
    description: definition.description,
    required: definition.required,
    permission: definition.permission,
  };
}

export function presentFile(row: ImportFileRow): Schemas['PeopleImportFile'] {
  const kind = row.kind as PeopleImportKind;
  const columns = JSON.parse(row.columns) as string[];
  const suggestedMapping = suggestMapping(columns, kind);
  return {
    id: row.id,
    kind,
    filename: row.filename,
    format: row.format as 'csv' | 'xlsx',
    sizeBytes: Number(row.size_bytes),
    columns,
    rowCount: Number(row.row_count),
    suggestedMapping,
    missingRequiredFields: missingRequired(suggestedMapping, kind),
    createdAt: iso(row.created_at),
    expiresAt: iso(row.expires_at),
  };
}

export function presentRun(row: RunRow): Schemas['PeopleImport'] {
  return {
    id: row.id,
    kind: row.kind as PeopleImportKind,
    status: row.status as Schemas['PeopleImport']['status'],
    dryRun: Boolean(row.dry_run),
    source: {
      type: row.integration_id ? 'integration' : 'file',
      fileId: row.file_id,
      filename: row.filename,
      integrationId: row.integration_id,
    },
    mapping: row.mapping ? (JSON.parse(row.mapping) as ColumnMapping) : null,
    mappingName: row.mapping_name,
    jobId: row.job_id,
    rowCount: row.row_count === null ? null : Number(row.row_count),
    plan: row.plan ? (JSON.parse(row.plan) as Schemas['PeopleImportPlan']) : null,
    errors: row.errors ? (JSON.parse(row.errors) as RowError[]) : [],
    errorCount: Number(row.error_count),
    message: row.message,
    createdAt: iso(row.created_at),
    startedAt: isoOrNull(row.started_at),
    finishedAt: isoOrNull(row.finished_at),
  };
}

export function presentMapping(row: MappingRow): Schemas['PeopleImportMapping'] {
  return {
    id: row.id,
    kind: row.kind as PeopleImportKind,
    name: row.name,
    mapping: JSON.parse(row.mapping) as ColumnMapping,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}
