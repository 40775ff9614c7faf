import type { components } from '../contract-types.js';
import { defineModule } from '../kernel/modules.js';
import { forexOperations } from './routes.js';

declare module '../platform/events.js' {
  interface DomainEvents {
    'exchange_rate.created': { base: string; quote: string; rate: string; effectiveDate: string };
    'exchange_rate.removed': components['schemas']['CompanyExchangeRate'];
    'reference_rates.imported': { firstDate: string | null; lastDate: string | null; added: number; corrected: number };
  }
}

export default defineModule({
  operations: forexOperations,
  permissions: ['companySettings'],
});
