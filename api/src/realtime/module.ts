import { defineModule } from '../kernel/modules.js';

/** The sockets have no operations of their own; the switch for live updates is theirs. */
export default defineModule({
  operations: [],
  permissions: [],
  flags: {
    multiplayer: { default: false, demo: true, order: 100 },
  },
});
