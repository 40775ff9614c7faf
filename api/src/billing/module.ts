import { defineModule } from '../kernel/modules.js';
import { billingOperations } from './routes.js';

/** Buying premium benchmarking through the deployment's payment provider (docs/billing.md). */
export default defineModule({
  operations: billingOperations,
  permissions: ['benchmarking'],
});
