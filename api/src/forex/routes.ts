import { can, internalAdmin, operation, publicAccess, secured } from '../kernel/operations.js';
import { companyRates, createCompanyRate, removeCompanyRate } from './companyRates.js';
import { importReferenceRates } from './referenceImport.js';
import { convert, history, latestTable } from './service.js';

export const forexOperations = [
  operation({
    operationId: 'getLatestForexRates',
    access: publicAccess,
    handler: async ({ query }, { deps }) => ({ data: await latestTable(deps.db, query.base) }),
  }),
  operation({
    operationId: 'listForexRateHistory',
    access: publicAccess,
    handler: async ({ query }, { deps }) => {
      const page = await history(deps.db, query);
      return { data: page.rates, page: { limit: query.limit, nextCursor: page.nextCursor } };
    },
  }),
  operation({
    operationId: 'convertMoney',
    access: publicAccess,
    // Anyone may convert; a signed-in caller's company may have its own rate for the pair.
    handler: async ({ body }, { deps, caller }) => ({
      data: await convert(deps.db, body, caller?.companyId ? { companyId: caller.companyId } : undefined),
    }),
  }),
  secured({
    operationId: 'listCompanyExchangeRates',
    access: can('companySettings', 'view'),
    handler: async ({ query }, { deps, caller }) => ({ data: await companyRates(deps.db, caller, query) }),
  }),
  secured({
    operationId: 'createCompanyExchangeRate',
    access: can('companySettings', 'edit'),
    status: 201,
    handler: async ({ body }, { deps, caller }) => ({ data: await createCompanyRate(deps.db, caller, body) }),
  }),
  secured({
    operationId: 'deleteCompanyExchangeRate',
    access: can('companySettings', 'edit'),
    handler: async ({ path }, { deps, caller }) => ({ data: await removeCompanyRate(deps.db, caller, path.exchangeRateId) }),
  }),
  secured({
    operationId: 'importReferenceRates',
    access: internalAdmin,
    handler: async ({ query, body }, { deps, caller }) => ({ data: await importReferenceRates(deps.db, caller, body, query.dryRun) }),
  }),
];
