import { defineModule } from '../kernel/modules.js';
import { compTypeOperations } from './routes.js';

declare module '../platform/events.js' {
  interface DomainEvents {
    /** The company's comp type settings changed: which types are off, which have their own title. */
    'compTypes.updated': { version: number; disabled: string[]; renamed: { id: string; title: string }[] };
  }
}

export default defineModule({
  operations: compTypeOperations,
  permissions: ['companySettings'],
});
