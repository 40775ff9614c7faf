import { Mail } from 'lucide-react';
import { defineModule, lazyScreen } from '../../app/webModule';

const screens = () => import('./LettersScreen');

/**
 * Reward letters: the person's own letters (`/rewardletters`, one at `/rewardletters/<cycle>`), which
 * every employee reads once released, so those routes are not behind the planners' module gate (the
 * API answers 404 while compensation planning is off); and a cycle's letters for planners
 * (`/rewardletters/cycles/<cycle>`: template, preview, release, ZIP export).
 */
export default defineModule({
  routes: [
    { path: '/rewardletters', screen: lazyScreen(screens, (m) => m.MyLettersScreen) },
    { path: '/rewardletters/cycles/:meritCycleId', screen: lazyScreen(() => import('./CycleLetters'), (m) => m.CycleLettersScreen), module: 'rewardLetters' },
    { path: '/rewardletters/:meritCycleId', screen: lazyScreen(screens, (m) => m.MyLetterScreen) },
  ],
  tiles: [{ module: 'rewardLetters', title: 'Reward letters', description: 'Letters for every employee at the end of a cycle.', href: '/rewardletters', icon: Mail }],
});
