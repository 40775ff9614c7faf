import { atomWithStorage, createJSONStorage } from 'jotai/utils';
import type { Selection } from './selection';

/** Kept for the tab (sessionStorage), so results, export and back all see the same choice. */
export const selectionAtom = atomWithStorage<Selection | null>(
  'paybench.benchmark.selection',
  null,
  createJSONStorage(() => sessionStorage),
  { getOnInit: true },
);
