import { Users } from 'lucide-react';
import { defineModule, lazyScreen } from '../../app/webModule';

const settings = () => import('./Settings');

/** The team view: overview, the employee table, analytics, the playground and the settings. */
export default defineModule({
  routes: [
    { path: '/team', screen: lazyScreen(() => import('./Overview'), (m) => m.TeamOverviewScreen), module: 'teamview' },
    { path: '/team/employees', screen: lazyScreen(() => import('./Employees'), (m) => m.TeamEmployeesScreen), module: 'teamview' },
    { path: '/team/analytics', screen: lazyScreen(() => import('./Analytics'), (m) => m.TeamAnalyticsScreen), module: 'teamview' },
    { path: '/team/analytics/playground', screen: lazyScreen(() => import('./Playground'), (m) => m.TeamPlaygroundScreen), module: 'teamview' },
    { path: '/team/settings', screen: lazyScreen(settings, (m) => m.TeamSettingsScreen), module: 'teamview' },
    { path: '/team/settings/columns', screen: lazyScreen(settings, (m) => m.TeamColumnsSettingsScreen), module: 'teamview' },
    { path: '/team/settings/comp-timeline', screen: lazyScreen(settings, (m) => m.TeamCompTimelineSettingsScreen), module: 'teamview' },
    { path: '/team/settings/equity-details', screen: lazyScreen(settings, (m) => m.TeamEquityDetailsSettingsScreen), module: 'teamview' },
  ],
  nav: [{ href: '/team', label: 'Team', order: 80, module: 'teamview', icon: Users }],
  tiles: [{ module: 'teamview', title: 'Team', description: 'Your employees, their pay and how it compares.', href: '/team', icon: Users }],
});
