import { defineModule, lazyScreen } from '../../app/webModule';

const composition = () => import('./DataComposition');

/** Data composition: what the market is made of, and the public summary. */
export default defineModule({
  routes: [
    { path: '/datacomposition', redirect: '/datacomposition/companies' },
    { path: '/datacomposition/companies', screen: lazyScreen(composition, (m) => m.CompositionCompaniesScreen), module: 'benchmarking' },
    { path: '/datacomposition/jobfamilies', screen: lazyScreen(composition, (m) => m.CompositionJobFamiliesScreen), module: 'benchmarking' },
    { path: '/datacomposition/locations', screen: lazyScreen(composition, (m) => m.CompositionLocationsScreen), module: 'benchmarking' },
    { path: '/datacomposition/marketingversion', screen: lazyScreen(composition, (m) => m.CompositionMarketingScreen) },
  ],
});
