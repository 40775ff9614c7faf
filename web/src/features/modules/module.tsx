import { Mail } from 'lucide-react';
import { defineModule, lazyScreen } from '../../app/webModule';

const coming = () => import('./Coming');

/** Modules switched on but not built yet: each says what is coming. */
export default defineModule({
  routes: [
    { path: '/paybench-data-lab', screen: lazyScreen(coming, (m) => m.DataLabScreen) },
    { path: '/settings/workflows', screen: lazyScreen(coming, (m) => m.WorkflowsScreen), module: 'settings' },
  ],
  tiles: [
    { module: 'rewardLetters', title: 'Reward letters', description: 'Letters for every employee at the end of a cycle.', href: '/compensationplanning', icon: Mail },
  ],
});
