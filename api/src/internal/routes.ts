import { createCompanyWithAdmin } from '../companies/service.js';
import { internalAdmin, secured } from '../kernel/operations.js';
import { accessibleCompanies, companyErrorScreen, companyFlags, companyTags, endSession, listSessions, setCompanyErrorScreen, setCompanyTags, startSession, toggleFlag } from './service.js';

export const internalOperations = [
  secured({
    operationId: 'listAccessibleCompanies',
    access: internalAdmin,
    handler: async ({ query }, { deps }) => ({ data: await accessibleCompanies(deps.db, query.search) }),
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
    handler: async ({ path }, { deps }) => ({ data: await companyFlags(deps.db, path.companyId) }),
  }),
  secured({
    operationId: 'setCompanyReleaseFlag',
    access: internalAdmin,
    handler: async ({ path, body }, { deps, caller }) => ({
      data: await toggleFlag(deps.db, caller, path.companyId, path.flag, body.enabled),
    }),
  }),
  secured({
    operationId: 'getCompanyEnterpriseTags',
    access: internalAdmin,
    handler: async ({ path }, { deps }) => ({ data: await companyTags(deps.db, path.companyId) }),
  }),
  secured({
    operationId: 'setCompanyEnterpriseTags',
    access: internalAdmin,
    handler: async ({ path, body }, { deps, caller }) => ({ data: await setCompanyTags(deps.db, caller, path.companyId, body.tags) }),
  }),
  secured({
    operationId: 'getCompanyErrorScreen',
    access: internalAdmin,
    handler: async ({ path }, { deps }) => ({ data: await companyErrorScreen(deps.db, path.companyId) }),
  }),
  secured({
    operationId: 'setCompanyErrorScreen',
    access: internalAdmin,
    handler: async ({ path, body }, { deps, caller }) => ({ data: await setCompanyErrorScreen(deps.db, caller, path.companyId, body.text) }),
  }),
  secured({
    operationId: 'listViewAsSessions',
    access: internalAdmin,
    handler: async (_input, { deps, caller }) => ({ data: await listSessions(deps.db, caller) }),
  }),
  secured({
    operationId: 'startViewAsSession',
    access: internalAdmin,
    status: 201,
    handler: async ({ body }, { deps, caller }) => ({ data: await startSession(deps.db, caller, body) }),
  }),
  secured({
    operationId: 'endViewAsSession',
    access: internalAdmin,
    handler: async ({ path }, { deps, caller }) => ({ data: await endSession(deps.db, caller, path.sessionId) }),
  }),
];
