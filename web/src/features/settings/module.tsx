import { Settings, ShieldCheck, UserCog } from 'lucide-react';
import { defineModule, lazyScreen } from '../../app/webModule';

const users = () => import('./Users');

/** Settings: the sections, company info, exchange rates, notifications, users, guests, roles and the person's own access (other modules add their own settings routes). */
export default defineModule({
  routes: [
    { path: '/settings', screen: lazyScreen(() => import('./SettingsHome'), (m) => m.SettingsHomeScreen) },
    { path: '/settings/company-info', screen: lazyScreen(() => import('./CompanyInfo'), (m) => m.CompanyInfoScreen), module: 'settings' },
    { path: '/settings/exchange-rates', screen: lazyScreen(() => import('./ExchangeRates'), (m) => m.ExchangeRatesScreen), module: 'settings' },
    { path: '/settings/guests', screen: lazyScreen(() => import('./Guests'), (m) => m.GuestsScreen), module: 'settings' },
    { path: '/settings/access', screen: lazyScreen(() => import('./MyAccess'), (m) => m.MyAccessScreen) },
    { path: '/settings/comp-types', screen: lazyScreen(() => import('./CompTypes'), (m) => m.CompTypesScreen), module: 'settings' },
    { path: '/settings/notifications', screen: lazyScreen(() => import('./Notifications'), (m) => m.NotificationsScreen) },
    { path: '/settings/users', screen: lazyScreen(users, (m) => m.UsersScreen), module: 'settings' },
    { path: '/settings/roles', screen: lazyScreen(() => import('./Roles'), (m) => m.RolesScreen), module: 'settings' },
    { path: '/settings/workflows', screen: lazyScreen(() => import('./workflows/WorkflowsScreen'), (m) => m.WorkflowsScreen), module: 'settings' },
    { path: '/settings/sso', screen: lazyScreen(() => import('./sso/SsoScreen'), (m) => m.SsoSettingsScreen), module: 'settings' },
  ],
  nav: [
    { href: '/settings/users', label: 'Users', order: 90, module: 'settings', icon: UserCog },
    { href: '/settings/roles', label: 'Roles', order: 100, module: 'settings', icon: ShieldCheck },
    { href: '/settings', label: 'Settings', order: 110, icon: Settings },
  ],
  tiles: [{ module: 'settings', title: 'Settings', description: 'Company settings, users and roles.', href: '/settings', icon: Settings }],
});
