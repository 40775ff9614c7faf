import { defineModule } from '../kernel/modules.js';
import { importOperations } from './routes.js';

declare module '../platform/events.js' {
  interface DomainEvents {
    'users.imported': { create: number; update: number; unchanged: number; invited?: number };
    'roles.imported': { changes: unknown[] };
  }
}

export default defineModule({
  operations: importOperations,
  permissions: ['roles', 'users'],
});
