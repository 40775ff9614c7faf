import { defineModule } from '../kernel/modules.js';
import { downloadOperations } from './routes.js';

export default defineModule({
  operations: downloadOperations,
  permissions: [],
});
