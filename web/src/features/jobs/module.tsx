import { defineModule } from '../../app/webModule';
import { JobsButton } from './JobsButton';

/** Background jobs: a button in the side menu (when the job manager flag is on); the list loads when opened. */
export default defineModule({
  routes: [],
  nav: [{ key: 'background-jobs', order: 130, widget: JobsButton }],
});
