import { Gift } from 'lucide-react';
import { defineModule, lazyScreen } from '../../app/webModule';

const TotalRewards = lazyScreen(() => import('./StatementScreen'), (m) => m.TotalRewardsScreen);
const IssueStatements = lazyScreen(() => import('./IssueScreen'), (m) => m.IssueStatementsScreen);
const Communicate = lazyScreen(() => import('./communicate/CommunicateScreen'), (m) => m.CommunicateScreen);

/**
 * Total rewards: the employee's own statement (`/totalrewards`, `/totalrewards/statement` and its
 * sections; admins' previews under `/totalrewards/preview`, issuing statements at `/totalrewards/issued`), and the communicate settings behind it
 * (`/settings/communicate` and all its sections, one screen that reads the section from the path).
 */
export default defineModule({
  routes: [
    { path: '/totalrewards', screen: TotalRewards, module: 'totalRewards' },
    { path: '/totalrewards/issued', screen: IssueStatements, module: 'totalRewards' },
    { path: '/totalrewards/*', screen: TotalRewards, module: 'totalRewards' },
    { path: '/settings/communicate', screen: Communicate, module: 'totalRewards' },
    { path: '/settings/communicate/:section', screen: Communicate, module: 'totalRewards' },
    { path: '/settings/communicate/:section/:sub', screen: Communicate, module: 'totalRewards' },
  ],
  nav: [{ href: '/totalrewards', label: 'Total rewards', order: 60, module: 'totalRewards', icon: Gift }],
  tiles: [{ module: 'totalRewards', title: 'Total rewards', description: 'Your statement: pay, equity and benefits, also offline.', href: '/totalrewards', icon: Gift }],
});
