import { defineModule, lazyScreen } from '../../app/webModule';

const demo = () => import('./Demo');

/** The benchmarking tour. */
export default defineModule({
  routes: [
    { path: '/benchmarking-demo', redirect: '/benchmarking-demo/job-catalog' },
    { path: '/benchmarking-demo/job-catalog', screen: lazyScreen(demo, (m) => m.DemoJobCatalogScreen) },
    { path: '/benchmarking-demo/location-differentials', screen: lazyScreen(demo, (m) => m.DemoLocationDifferentialsScreen) },
    { path: '/benchmarking-demo/equity-practices', screen: lazyScreen(demo, (m) => m.DemoEquityPracticesScreen) },
    { path: '/benchmarking-demo/participants-list', screen: lazyScreen(demo, (m) => m.DemoParticipantsScreen) },
  ],
});
