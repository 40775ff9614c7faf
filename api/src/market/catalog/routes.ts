import { can, secured } from '../../kernel/operations.js';
import { catalogFamilies, catalogLocations } from './service.js';

const viewBenchmarking = can('benchmarking', 'view');

/** The catalog's families and locations, read by the explorer and `paybench catalog`. */
export const catalogOperations = [
  secured({
    operationId: 'listCatalogJobFamilies',
    access: viewBenchmarking,
    handler: async () => ({ data: catalogFamilies() }),
  }),
  secured({
    operationId: 'listCatalogLocations',
    access: viewBenchmarking,
    handler: async ({ query }, ctx) => ({ data: await catalogLocations(ctx, query.kind) }),
  }),
];
