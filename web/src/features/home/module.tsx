import { defineModule, lazyScreen } from '../../app/webModule';

/** Home: the welcome, the person's own pay, and a tile per module (each module declares its own tile). */
export default defineModule({
  routes: [{ path: '/home', screen: lazyScreen(() => import('./Home'), (m) => m.Home) }],
  nav: [{ href: '/home', label: 'Home', order: 10 }],
});
