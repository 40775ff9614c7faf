import { accessOperations } from './access/routes.js';
import { companyOperations } from './companies/routes.js';
import { currencyOperations } from './currencies/routes.js';
import { downloadOperations } from './downloads/routes.js';
import { eventOperations } from './events/routes.js';
import { forexOperations } from './forex/routes.js';
import { helpDeskOperations } from './helpdesk/routes.js';
import { hrisOperations } from './hris/routes.js';
import type { RegisteredOperation } from './http/operations.js';
import { identityOperations } from './identity/routes.js';
import { importOperations } from './imports/routes.js';
import { integrationOperations } from './integrations/routes.js';
import { internalOperations } from './internal/routes.js';
import { jobOperations } from './jobs/routes.js';
import { marketOperations } from './market/routes.js';
import { notificationOperations } from './notifications/routes.js';
import { peopleOperations } from './people/routes.js';
import { systemOperations } from './system/routes.js';
import { teamOperations } from './team/routes.js';

/** Every handler of the contract, by product area. */
export const allOperations: RegisteredOperation[] = [
  ...systemOperations,
  ...currencyOperations,
  ...forexOperations,
  ...identityOperations,
  ...companyOperations,
  ...accessOperations,
  ...importOperations,
  ...hrisOperations,
  ...integrationOperations,
  ...internalOperations,
  ...jobOperations,
  ...marketOperations,
  ...downloadOperations,
  ...notificationOperations,
  ...eventOperations,
  ...helpDeskOperations,
  ...peopleOperations,
  ...teamOperations,
];
