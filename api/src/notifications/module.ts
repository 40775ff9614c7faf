import { defineModule } from '../platform/modules.js';
import { notificationOperations } from './routes.js';
import { notifyJobEnded } from './service.js';

export default defineModule({
  operations: notificationOperations,
  permissions: ['companySettings'],
  subscribers: [notifyJobEnded],
});
