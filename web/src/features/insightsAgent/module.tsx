import { defineModule, lazyScreen } from '../../app/webModule';

/**
 * The data lab's insights agent: conversations whose answers stream in, each citing the operations
 * (and screens) its numbers come from. The data lab's screen links here when the company's
 * subscription has the agent.
 */
export default defineModule({
  routes: [{ path: '/paybench-data-lab/agent', screen: lazyScreen(() => import('./AgentScreen'), (m) => m.InsightsAgentScreen) }],
});
