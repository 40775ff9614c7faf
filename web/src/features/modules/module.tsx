import { ClipboardList, FileSignature, Gift, Layers, Mail } from 'lucide-react';
import { defineModule, lazyScreen } from '../../app/webModule';

const coming = () => import('./Coming');
const CompensationPlanning = lazyScreen(coming, (m) => m.CompensationPlanningScreen);
const TotalRewards = lazyScreen(coming, (m) => m.TotalRewardsScreen);
const Communicate = lazyScreen(coming, (m) => m.CommunicateScreen);

/** Modules switched on but not built yet: each says what is coming. */
export default defineModule({
  routes: [
    { path: '/paybench-data-lab', screen: lazyScreen(coming, (m) => m.DataLabScreen) },
    { path: '/offers', screen: lazyScreen(coming, (m) => m.OffersScreen), module: 'visualOfferLetter' },
    { path: '/bands', screen: lazyScreen(coming, (m) => m.BandsScreen), module: 'bands' },
    { path: '/compensationplanning', screen: CompensationPlanning, module: 'compplanning' },
    { path: '/compensationplanning/*', screen: CompensationPlanning, module: 'compplanning' },
    { path: '/totalrewards', screen: TotalRewards, module: 'totalRewards' },
    { path: '/totalrewards/*', screen: TotalRewards, module: 'totalRewards' },
    { path: '/settings/workflows', screen: lazyScreen(coming, (m) => m.WorkflowsScreen), module: 'settings' },
    { path: '/settings/communicate', screen: Communicate, module: 'totalRewards' },
    { path: '/settings/communicate/:section', screen: Communicate, module: 'totalRewards' },
    { path: '/settings/communicate/:section/:sub', screen: Communicate, module: 'totalRewards' },
  ],
  nav: [
    { href: '/offers', label: 'Offers', order: 30, module: 'visualOfferLetter', icon: FileSignature },
    { href: '/bands', label: 'Salary bands', order: 40, module: 'bands', icon: Layers },
    { href: '/compensationplanning', label: 'Planning', order: 50, module: 'compplanning', icon: ClipboardList },
    { href: '/totalrewards', label: 'Total rewards', order: 60, module: 'totalRewards', icon: Gift },
  ],
  tiles: [
    { module: 'compplanning', title: 'Compensation planning', description: 'Merit cycles, budgets and approvals.', href: '/compensationplanning', icon: ClipboardList },
    { module: 'rewardLetters', title: 'Reward letters', description: 'Letters for every employee at the end of a cycle.', href: '/compensationplanning', icon: Mail },
    { module: 'bands', title: 'Salary bands', description: 'Bands, grades, pay zones and surveys.', href: '/bands', icon: Layers },
    { module: 'visualOfferLetter', title: 'Offers', description: 'Visual offer letters for candidates.', href: '/offers', icon: FileSignature },
    { module: 'totalRewards', title: 'Total rewards', description: 'Statements of everything employees receive.', href: '/totalrewards', icon: Gift },
  ],
});
