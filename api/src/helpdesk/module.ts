import { defineModule } from '../kernel/modules.js';
import { helpDeskOperations } from './routes.js';

export default defineModule({
  operations: helpDeskOperations,
  permissions: [],
  flags: {
    help_desk: { default: false, order: 110 },
  },
});
