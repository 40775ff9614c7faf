import { Wrench } from 'lucide-react';
import { defineModule, lazyScreen } from '../../app/webModule';

/** Internal tools: companies, release flags, view as; and the living UI kit (/internal/ui), for internal admins. */
export default defineModule({
  routes: [
    { path: '/internal', screen: lazyScreen(() => import('./Internal'), (m) => m.InternalScreen) },
    { path: '/internal/ui', screen: lazyScreen(() => import('./UiKit'), (m) => m.UiKitScreen) },
    { path: '/internal/market-releases', screen: lazyScreen(() => import('./MarketReleases'), (m) => m.MarketReleasesScreen) },
    { path: '/internal/market-releases/:releaseId', screen: lazyScreen(() => import('./MarketReleases'), (m) => m.MarketReleaseScreen) },
    { path: '/internal/market-quarantines', screen: lazyScreen(() => import('./MarketQuarantines'), (m) => m.MarketQuarantinesScreen) },
  ],
  nav: [{ href: '/internal', label: 'Internal', order: 120, internalOnly: true, icon: Wrench }],
});
