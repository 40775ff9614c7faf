import { can, secured } from '../kernel/operations.js';
import { socketIdOf } from '../kernel/socketId.js';
import { getFile, getRun, importFields, mappings, removeMapping, saveMapping, startImport, uploadFile } from './service.js';

// People-data imports change the team's records: team edit for every step (pay, equity and
// demographic columns need their own edit permissions on top, checked by the service).
const importer = can('team', 'edit');

export const hrisOperations = [
  secured({
    operationId: 'listPeopleImportFields',
    access: importer,
    handler: async ({ query }) => ({ data: importFields(query.kind) }),
  }),
  secured({
    operationId: 'uploadPeopleImportFile',
    access: importer,
    status: 201,
    handler: async ({ query, body }, { deps, caller }) => ({ data: await uploadFile(deps, caller, query, body) }),
  }),
  secured({
    operationId: 'getPeopleImportFile',
    access: importer,
    handler: async ({ path }, { deps, caller }) => ({ data: await getFile(deps.db, caller, path.peopleImportFileId) }),
  }),
  secured({
    operationId: 'startPeopleImport',
    access: importer,
    status: 202,
    handler: async ({ path, body }, { deps, caller, koa, afterCommit }) => ({ data: await startImport(deps, caller, path.peopleImportFileId, body, { originSocketId: socketIdOf(koa.get('x-socket-id')), afterCommit }) }),
  }),
  secured({
    operationId: 'getPeopleImport',
    access: importer,
    handler: async ({ path }, { deps, caller }) => ({ data: await getRun(deps.db, caller, path.peopleImportRunId) }),
  }),
  secured({
    operationId: 'listPeopleImportMappings',
    access: importer,
    handler: async ({ query }, { deps, caller }) => ({ data: await mappings(deps.db, caller, query.kind) }),
  }),
  secured({
    operationId: 'savePeopleImportMapping',
    access: importer,
    handler: async ({ body }, { deps, caller }) => ({ data: await saveMapping(deps.db, caller, body) }),
  }),
  secured({
    operationId: 'deletePeopleImportMapping',
    access: importer,
    handler: async ({ path }, { deps, caller }) => ({ data: await removeMapping(deps.db, caller, path.peopleImportMappingId) }),
  }),
];
