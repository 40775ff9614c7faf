import { defineModule } from '../kernel/modules.js';
import { internalOperations } from './routes.js';

declare module '../platform/events.js' {
  interface DomainEvents {
    'release_flag.set': { enabled: boolean };
    'enterprise_tags.set': { tags: string[]; flagsOn: string[]; flagsOff: string[] };
    'view_as.started': { reason: string };
    'view_as.ended': Record<string, never>;
    'error_screen.set': { title: string | null; description: string | null };
  }
}

export default defineModule({
  operations: internalOperations,
  permissions: [],
});
