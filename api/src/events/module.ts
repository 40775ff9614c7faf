import { defineModule } from '../platform/modules.js';
import { eventOperations } from './routes.js';

export default defineModule({
  operations: eventOperations,
  permissions: [],
});
