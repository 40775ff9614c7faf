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
    handler: async ({ query, body }, ctx) => ({ data: await uploadFile(ctx, query, body) }),
  }),
  secured({
    operationId: 'getPeopleImportFile',
    access: importer,
    handler: async ({ path }, ctx) => ({ data: await getFile(ctx, path.peopleImportFileId) }),
  }),
  secured({
    operationId: 'startPeopleImport',
    access: importer,
    status: 202,
    handler: async ({ path, body }, ctx) => ({ data: await startImport(ctx, path.peopleImportFileId, body, { originSocketId: socketIdOf(ctx.koa.get('x-socket-id')), afterCommit: ctx.afterCommit }) }),
  }),
  secured({
    operationId: 'getPeopleImport',
    access: importer,
    handler: async ({ path }, ctx) => ({ data: await getRun(ctx, path.peopleImportRunId) }),
  }),
  secured({
    operationId: 'listPeopleImportMappings',
    access: importer,
    handler: async ({ query }, ctx) => ({ data: await mappings(ctx, query.kind) }),
  }),
  secured({
    operationId: 'savePeopleImportMapping',
    access: importer,
    handler: async ({ body }, ctx) => ({ data: await saveMapping(ctx, body) }),
  }),
  secured({
    operationId: 'deletePeopleImportMapping',
    access: importer,
    handler: async ({ path }, ctx) => ({ data: await removeMapping(ctx, path.peopleImportMappingId) }),
  }),
];
