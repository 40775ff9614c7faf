import type { components } from '../contract-types.js';
import { defineModule } from '../kernel/modules.js';
import { companyOperations } from './routes.js';
import { grant } from '../access/permissions.js';

declare module '../access/permissions.js' {
  interface Permissions { companySettings: true; }
}

declare module '../platform/events.js' {
  interface DomainEvents {
    'company.created': { name: string; byInternalAdmin?: true };
    'company.settings.updated': { from: components['schemas']['CompanySettings']; to: components['schemas']['CompanySettingsInput'] };
  }
}

export default defineModule({
  operations: companyOperations,
  permissions: ['companySettings'],
  ownPermissions: {
    companySettings: {
      label: 'Company settings',
      group: 'administration',
      order: 30,
      description: 'view: see company settings (currency, share price, valuation); edit: change them.',
      scopes: ['all'],
      roles: { compensation_planner: grant('view') },
    },
  },
  switches: {
    settings: { label: 'Settings', permissions: ['companySettings'], order: 30 },
  },
});
