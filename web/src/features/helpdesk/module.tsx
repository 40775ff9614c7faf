import { defineModule } from '../../app/webModule';
import { HelpDesk } from './HelpDesk';

/** Help desk: the launcher and help panel, booted and shut down as the spec's states say (no routes of its own). */
export default defineModule({
  routes: [],
  nav: [{ key: 'help-desk', order: 140, widget: HelpDesk }],
});
