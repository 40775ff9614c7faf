import { defineModule } from '../platform/modules.js';
import { helpDeskOperations } from './routes.js';

export default defineModule({
  operations: helpDeskOperations,
  permissions: [],
});
