import { FileSignature, Mail } from 'lucide-react';
import { defineModule, lazyScreen } from '../../app/webModule';

const coming = () => import('./Coming');

/** Modules switched on but not built yet: each says what is coming. */
export default defineModule({
  routes: [
    { path: '/paybench-data-lab', screen: lazyScreen(coming, (m) => m.DataLabScreen) },
    { path: '/offers', screen: lazyScreen(coming, (m) => m.OffersScreen), module: 'visualOfferLetter' },
    { path: '/settings/workflows', screen: lazyScreen(coming, (m) => m.WorkflowsScreen), module: 'settings' },
  ],
  nav: [
    { href: '/offers', label: 'Offers', order: 30, module: 'visualOfferLetter', icon: FileSignature },
  ],
  tiles: [
    { module: 'rewardLetters', title: 'Reward letters', description: 'Letters for every employee at the end of a cycle.', href: '/compensationplanning', icon: Mail },
    { module: 'visualOfferLetter', title: 'Offers', description: 'Visual offer letters for candidates.', href: '/offers', icon: FileSignature },
  ],
});
