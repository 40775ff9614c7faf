import { FlaskConical } from 'lucide-react';
import { defineModule, lazyScreen } from '../../app/webModule';

/**
 * The data lab's screen: insights, bookmarks and the ways into the insights agent and pulse
 * surveys (each of which declares its own routes). Open to everyone with data-lab access; what
 * the company's subscription lacks, the screen says.
 */
export default defineModule({
  routes: [{ path: '/paybench-data-lab', screen: lazyScreen(() => import('./DataLab'), (m) => m.DataLabScreen) }],
  nav: [{ href: '/paybench-data-lab', label: 'Data lab', order: 65, permission: 'dataLab', icon: FlaskConical }],
});
