import { defineModule } from '../kernel/modules.js';
import { currencyOperations } from './routes.js';

export default defineModule({
  operations: currencyOperations,
  permissions: [],
});
