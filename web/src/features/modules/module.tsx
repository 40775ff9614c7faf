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
    { href: '/offers', label: 'Offers', order: 30, module: 'visualOfferLetter' },
    { href: '/bands', label: 'Salary bands', order: 40, module: 'bands' },
    { href: '/compensationplanning', label: 'Planning', order: 50, module: 'compplanning' },
    { href: '/totalrewards', label: 'Total rewards', order: 60, module: 'totalRewards' },
  ],
  tiles: [
    { module: 'compplanning', title: 'Compensation planning', description: 'Merit cycles, budgets and approvals.' },
    { module: 'rewardLetters', title: 'Reward letters', description: 'Letters for every employee at the end of a cycle.' },
    { module: 'bands', title: 'Salary bands', description: 'Bands, grades, pay zones and surveys.' },
    { module: 'visualOfferLetter', title: 'Offers', description: 'Visual offer letters for candidates.' },
    { module: 'totalRewards', title: 'Total rewards', description: 'Statements of everything employees receive.' },
  ],
});
