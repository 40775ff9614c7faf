import { createCompanyWithAdmin } from '../companies/service.js';
import { internalAdmin, secured } from '../kernel/operations.js';
import { accessibleCompanies, companyErrorScreen, companyFlags, companyTags, endSession, listSessions, setCompanyErrorScreen, setCompanyTags, startSession, toggleFlag } from './service.js';

export const internalOperations = [
  secured({
    operationId: 'listAccessibleCompanies',
    access: internalAdmin,
    handler: async ({ query }, ctx) => ({ data: await accessibleCompanies(ctx, query.search) }),
  }),
  secured({
    operationId: 'createCompanyWithAdmin',
    access: internalAdmin,
    status: 201,
    handler: async ({ body }, ctx) => ({ data: await createCompanyWithAdmin(ctx, body) }),
  }),
  secured({
    operationId: 'listCompanyReleaseFlags',
    access: internalAdmin,
    handler: async ({ path }, ctx) => ({ data: await companyFlags(ctx, path.companyId) }),
  }),
  secured({
    operationId: 'setCompanyReleaseFlag',
    access: internalAdmin,
    handler: async ({ path, body }, ctx) => ({
      data: await toggleFlag(ctx, path.companyId, path.flag, body.enabled),
    }),
  }),
  secured({
    operationId: 'getCompanyEnterpriseTags',
    access: internalAdmin,
    handler: async ({ path }, ctx) => ({ data: await companyTags(ctx, path.companyId) }),
  }),
  secured({
    operationId: 'setCompanyEnterpriseTags',
    access: internalAdmin,
    handler: async ({ path, body }, ctx) => ({ data: await setCompanyTags(ctx, path.companyId, body.tags) }),
  }),
  secured({
    operationId: 'getCompanyErrorScreen',
    access: internalAdmin,
    handler: async ({ path }, ctx) => ({ data: await companyErrorScreen(ctx, path.companyId) }),
  }),
  secured({
    operationId: 'setCompanyErrorScreen',
    access: internalAdmin,
    handler: async ({ path, body }, ctx) => ({ data: await setCompanyErrorScreen(ctx, path.companyId, body.text) }),
  }),
  secured({
    operationId: 'listViewAsSessions',
    access: internalAdmin,
    handler: async (_input, ctx) => ({ data: await listSessions(ctx) }),
  }),
  secured({
    operationId: 'startViewAsSession',
    access: internalAdmin,
    status: 201,
    handler: async ({ body }, ctx) => ({ data: await startSession(ctx, body) }),
  }),
  secured({
    operationId: 'endViewAsSession',
    access: internalAdmin,
    handler: async ({ path }, ctx) => ({ data: await endSession(ctx, path.sessionId) }),
  }),
];
