import { lazy } from 'react';
import { Scale } from 'lucide-react';
import { retryImport } from '../../app/retryImport';
import { defineModule, lazyScreen } from '../../app/webModule';

const mine = () => import('./MyPayInformation');
const hr = () => import('./Requests');

/**
 * Pay transparency (module `payEquity`): every employee's "Your pay information" page at
 * `/pay-information` (made for a phone; any member but a candidate, their own requests only), a home
 * card leading to it, and HR's queue of requests, one request's review and the pay-setting criteria
 * under `/pay-transparency`.
 */
export default defineModule({
  routes: [
    { path: '/pay-information', screen: lazyScreen(mine, (m) => m.MyPayInformationScreen) },
    { path: '/pay-transparency', module: 'payEquity', screen: lazyScreen(hr, (m) => m.PayTransparencyScreen) },
    { path: '/pay-transparency/requests/:requestId', module: 'payEquity', screen: lazyScreen(hr, (m) => m.PayInformationRequestScreen) },
  ],
  nav: [{ href: '/pay-transparency', label: 'Pay transparency', order: 77, module: 'payEquity', icon: Scale }],
  cards: [{ key: 'payInformation', order: 20, card: lazy(() => retryImport(() => import('./HomeCard')).then((m) => ({ default: m.PayInformationCard }))) }],
});
