import { defineModule, lazyScreen } from '../../app/webModule';

/** Internal tools: companies, release flags, view as. */
export default defineModule({
  routes: [{ path: '/internal', screen: lazyScreen(() => import('./Internal'), (m) => m.InternalScreen) }],
  nav: [{ href: '/internal', label: 'Internal', order: 120, internalOnly: true }],
});
