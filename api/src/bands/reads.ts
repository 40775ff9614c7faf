import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { type BandLocator, loadBandLocator } from './placement.js';
import { findCycleSet, findSet } from './store.js';

export type { BandLocator };

/*
 * What other areas read of bands: a merit cycle checks the set its settings name and finds each
 * employee's band at launch. Bands know none of their readers (a cycle is only an id here).
 */

/** Whether `bandSetId` is one of the company's band sets (any state). */
export async function isBandSet(db: Knex, scope: CompanyScope, bandSetId: string): Promise<boolean> {
  return (await findSet(db, scope, bandSetId)) !== undefined;
}

/**
 * The band locator (placement.ts) of the set a merit cycle takes: the one published to it, else the
 * one chosen in its settings (`chosenBandSetId`); null when it has none, or no zones.
 */
export async function cycleBandLocator(db: Knex, scope: CompanyScope, { meritCycleId, chosenBandSetId }: { meritCycleId: string; chosenBandSetId: string | null }): Promise<BandLocator | null> {
  const bandSetId = (await findCycleSet(db, scope, meritCycleId))?.id ?? chosenBandSetId;
  const set = bandSetId ? await findSet(db, scope, bandSetId) : undefined;
  return set ? loadBandLocator(db, scope, set.id) : null;
}
