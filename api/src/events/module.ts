import { defineModule } from '../kernel/modules.js';
import { eventOperations } from './routes.js';

export default defineModule({
  operations: eventOperations,
  permissions: [],
});
