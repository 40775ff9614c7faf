import { Scale } from 'lucide-react';
import { defineModule, lazyScreen } from '../../app/webModule';

/** Pay equity: the pay gap dashboard (Article 9, the UK figures, the adjusted gap), the job evaluation and the Article 10 assessments. */
export default defineModule({
  routes: [{ path: '/pay-equity', screen: lazyScreen(() => import('./PayEquity'), (m) => m.PayEquityScreen), module: 'payEquity' }],
  nav: [{ href: '/pay-equity', label: 'Pay equity', order: 67, module: 'payEquity', icon: Scale }],
  tiles: [{ module: 'payEquity', title: 'Pay equity', description: 'Pay gaps by category, the EU and UK reports, and what it costs to close them.', href: '/pay-equity', icon: Scale }],
});
