import type { components } from '../contract-types.js';
import type { FieldDefinition, PeopleImportKind } from './fields.js';
import { type ColumnMapping, missingRequired, suggestMapping } from './mapping.js';
import type { RowError } from './rows.js';
import type { ImportFileRow, MappingRow, RunRow } from './store.js';
import { presentRecord, presentUpload } from '../fileImports/present.js';

type Schemas = components['schemas'];

const iso = (value: string | Date): string => new Date(value).toISOString();

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
  const upload = presentUpload(row);
  const suggestedMapping = suggestMapping(upload.columns, kind);
  return { ...upload, kind, suggestedMapping, missingRequiredFields: missingRequired(suggestedMapping, kind) };
}

export function presentRun(row: RunRow): Schemas['PeopleImport'] {
  return {
    ...presentRecord<Schemas['PeopleImportPlan'], RowError>(row),
    kind: row.kind as PeopleImportKind,
    status: row.status as Schemas['PeopleImport']['status'],
    source: {
      type: row.integration_id ? 'integration' : 'file',
      fileId: row.file_id,
      filename: row.filename,
      integrationId: row.integration_id,
    },
    mapping: row.mapping ? (JSON.parse(row.mapping) as ColumnMapping) : null,
    mappingName: row.mapping_name,
    ...(row.conflicts ? { conflicts: JSON.parse(row.conflicts) as Schemas['SyncConflict'][] } : {}),
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
