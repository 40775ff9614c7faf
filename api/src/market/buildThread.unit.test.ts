import { describe, expect, it } from 'vitest';
import { buildScreenedInThread } from './build.js';
import { measureUtility } from './engine/index.js';
import { NO_CONTRIBUTION } from './participation/contribution.js';

describe('a release built on its thread', () => {
  it('comes back with the scorecard’s utility measured there, the same as measured here', async () => {
    const forex = { USD: 1, EUR: 0.92, GBP: 0.79 };
    const recipe = { id: 'release-1', builtAt: '2026-12-07T00:00:00.000Z', seed: 7, records: 5000, contribution: NO_CONTRIBUTION, disclosureKey: new Uint8Array(32).fill(7), forex };
    const built = await buildScreenedInThread(recipe);
    expect(built.utility?.figures).toBeGreaterThan(0);
    expect(built.utility).toEqual(measureUtility(built.release, { forex }));
    // Without rates the thread measures nothing: the scorecard measures it where it is computed.
    expect((await buildScreenedInThread({ ...recipe, forex: undefined })).utility).toBeUndefined();
  });
});
