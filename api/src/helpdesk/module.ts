import { defineModule } from '../kernel/modules.js';
import { helpDeskOperations } from './routes.js';

export default defineModule({
  operations: helpDeskOperations,
  permissions: [],
});
