import { defineModule } from '../kernel/modules.js';
import { internalOperations } from './routes.js';

declare module '../platform/events.js' {
  interface DomainEvents {
    'release_flag.set': { enabled: boolean };
    'view_as.started': { reason: string };
    'view_as.ended': Record<string, never>;
  }
}

export default defineModule({
  operations: internalOperations,
  permissions: [],
});
