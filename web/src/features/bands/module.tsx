import { Layers } from 'lucide-react';
import { defineModule, lazyScreen } from '../../app/webModule';

/** Salary bands: band sets and their editor, pay zones and job architecture. */
export default defineModule({
  routes: [
    { path: '/bands', screen: lazyScreen(() => import('./BandSets'), (m) => m.BandSetsScreen), module: 'bands' },
    { path: '/bands/sets/:bandSetId', screen: lazyScreen(() => import('./BandSetEditor'), (m) => m.BandSetScreen), module: 'bands' },
    { path: '/bands/zones', screen: lazyScreen(() => import('./PayZones'), (m) => m.PayZonesScreen), module: 'bands' },
    { path: '/bands/jobs', screen: lazyScreen(() => import('./CompanyJobs'), (m) => m.CompanyJobsScreen), module: 'bands' },
    { path: '/bands/surveys', screen: lazyScreen(() => import('./Surveys'), (m) => m.SurveysScreen), module: 'bands' },
    { path: '/bands/market-data', screen: lazyScreen(() => import('./Associations'), (m) => m.AssociationsScreen), module: 'bands' },
  ],
  nav: [{ href: '/bands', label: 'Salary bands', order: 40, module: 'bands', icon: Layers }],
  tiles: [{ module: 'bands', title: 'Salary bands', description: 'Band sets built from market data, pay zones and job architecture.', href: '/bands', icon: Layers }],
});
