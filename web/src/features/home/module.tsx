import { House } from 'lucide-react';
import { defineModule, lazyScreen } from '../../app/webModule';

/** Home: a dashboard by role (the company's figures, a manager's team, the person's own pay), recent jobs and each module's state. */
export default defineModule({
  routes: [{ path: '/home', screen: lazyScreen(() => import('./Home'), (m) => m.Home) }],
  nav: [{ href: '/home', label: 'Home', order: 10, icon: House }],
});
