import type { components } from '../contract-types.js';
import { defineModule } from '../kernel/modules.js';
import { domainProofRoutes } from './domains/proofLinks.js';
import { domainOperations } from './domains/routes.js';
import { companyOperations } from './routes.js';

declare module '../platform/events.js' {
  interface DomainEvents {
    'company.created': { name: string; byInternalAdmin?: true };
    'company.settings.updated': { from: components['schemas']['CompanySettings']; to: components['schemas']['CompanySettingsInput'] };
  }
}

export default defineModule({
  operations: [...companyOperations, ...domainOperations],
  permissions: ['companySettings'],
  // Whichever identity provider runs: the link is opened by whoever holds the mailbox.
  pages: [domainProofRoutes],
});
