import { defineModule } from '../../app/webModule';

/** Home tiles of modules built elsewhere; none today (reward letters declare theirs in features/rewardLetters). */
export default defineModule({
  routes: [],
});
