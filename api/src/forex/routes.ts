import { can, internalAdmin, operation, publicAccess, secured } from '../kernel/operations.js';
import { companyRates, createCompanyRate, removeCompanyRate } from './companyRates.js';
import { importReferenceRates } from './referenceImport.js';
import { convert, history, latestTable } from './service.js';

export const forexOperations = [
  operation({
    operationId: 'getLatestForexRates',
    access: publicAccess,
    handler: async ({ query }, ctx) => ({ data: await latestTable(ctx, query.base) }),
  }),
  operation({
    operationId: 'listForexRateHistory',
    access: publicAccess,
    handler: async ({ query }, ctx) => {
      const page = await history(ctx, query);
      return { data: page.rates, page: { limit: query.limit, nextCursor: page.nextCursor } };
    },
  }),
  operation({
    operationId: 'convertMoney',
    access: publicAccess,
    // Anyone may convert; a signed-in caller's company may have its own rate for the pair.
    handler: async ({ body }, ctx) => ({
      data: await convert(ctx, body, ctx.caller?.companyId ? { companyId: ctx.caller.companyId } : undefined),
    }),
  }),
  secured({
    operationId: 'listCompanyExchangeRates',
    access: can('companySettings', 'view'),
    handler: async ({ query }, ctx) => ({ data: await companyRates(ctx, query) }),
  }),
  secured({
    operationId: 'createCompanyExchangeRate',
    access: can('companySettings', 'edit'),
    status: 201,
    handler: async ({ body }, ctx) => ({ data: await createCompanyRate(ctx, body) }),
  }),
  secured({
    operationId: 'deleteCompanyExchangeRate',
    access: can('companySettings', 'edit'),
    handler: async ({ path }, ctx) => ({ data: await removeCompanyRate(ctx, path.exchangeRateId) }),
  }),
  secured({
    operationId: 'importReferenceRates',
    access: internalAdmin,
    handler: async ({ query, body }, ctx) => ({ data: await importReferenceRates(ctx, body, query.dryRun) }),
  }),
];
