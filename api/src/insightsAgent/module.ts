import { defineModule } from '../kernel/modules.js';
import { insightsAgentOperations } from './routes.js';

/**
 * The data lab's insights agent: sessions of questions, answered through the contract's own read
 * operations with the asker's credentials and streamed as Server-Sent Events. Gated by the
 * company's data-lab subscription (`agent`), not by a product module switch.
 */
export default defineModule({
  operations: insightsAgentOperations,
  permissions: ['dataLab'],
});
