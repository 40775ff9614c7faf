import { Plug } from 'lucide-react';
import { defineModule, lazyScreen } from '../../app/webModule';

const integrations = () => import('./Integrations');

/** Integrations: file imports, connecting HR and equity systems, the connections. */
export default defineModule({
  routes: [
    { path: '/integrations', screen: lazyScreen(integrations, (m) => m.IntegrationsScreen), module: 'integrations' },
    { path: '/settings/integrations', screen: lazyScreen(integrations, (m) => () => <m.IntegrationsScreen title="Integrations settings" />), module: 'integrations' },
    { path: '/settings/connections', screen: lazyScreen(integrations, (m) => m.ConnectionsScreen), module: 'integrations' },
  ],
  nav: [{ href: '/integrations', label: 'Integrations', order: 70, module: 'integrations', icon: Plug }],
  tiles: [{ module: 'integrations', title: 'Integrations', description: 'Connect your HR and equity systems.', href: '/integrations', icon: Plug }],
});
