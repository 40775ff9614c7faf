import { defineModule } from '../kernel/modules.js';
import { documentJobKinds } from './jobs.js';

/**
 * Documents have no operations of their own: modules (reward letters, offers, statements) render
 * through the service and start these jobs behind their own permissions.
 */
export default defineModule({
  operations: [],
  permissions: [],
  jobs: documentJobKinds,
});
