import { defineModule } from '../platform/modules.js';
import { referenceOperations } from './routes.js';

export default defineModule({
  operations: referenceOperations,
  permissions: [],
});
