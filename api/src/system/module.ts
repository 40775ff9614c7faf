import { defineModule } from '../kernel/modules.js';
import { systemOperations } from './routes.js';

export default defineModule({
  operations: systemOperations,
  permissions: [],
});
