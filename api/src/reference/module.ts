import { defineModule } from '../kernel/modules.js';
import { referenceOperations } from './routes.js';

export default defineModule({
  operations: referenceOperations,
  permissions: [],
});
