import type { Knex } from 'knex';
import { type Caller, companyScope } from '../access/caller.js';
import type { components } from '../contract-types.js';
import { updateAtVersion } from '../http/versions.js';
import { findLevel } from '../market/catalog/index.js';
import { minorUnits } from '../money/minorUnits.js';
import { type Figures, type LadderBand, smoothLadder } from './formulas.js';
import { parsePhilosophy } from './present.js';
import { bandSetDetail, requireDraft, requireSet } from './sets.js';
import { type BandJobRow, bandsOf, listBands, touchSet } from './store.js';

type Schemas = components['schemas'];
type Change = Schemas['BandSmoothResult']['changes'][number];

/** Rounding of a set never built: to the nearest 100 major units. */
const DEFAULT_ROUNDING = 100;

const rankOf = (levelId: string): number => findLevel(levelId)?.levelRank ?? 0;

/** The changes smoothing makes to a set's bands: per family × track × zone, ordered by level rank. */
export function smoothingChanges(bands: readonly BandJobRow[], progressionPercent: number, unitMinor: number, currency: string): { changes: Change[]; next: Map<string, Figures> } {
  const ladders = new Map<string, BandJobRow[]>();
  for (const band of bands) {
    const key = `${band.job_family_id}|${band.track}|${band.pay_zone_id}`;
    const ladder = ladders.get(key) ?? [];
    ladder.push(band);
    ladders.set(key, ladder);
  }
  const changes: Change[] = [];
  const next = new Map<string, Figures>();
  const money = (amount: number) => ({ amount, currency });
  for (const ladder of ladders.values()) {
    const input: LadderBand<string>[] = ladder.map((band) => ({ id: band.id, rank: rankOf(band.level_id), min: Number(band.min_amount), mid: Number(band.mid_amount), max: Number(band.max_amount) }));
    const smoothed = smoothLadder(input, progressionPercent, unitMinor);
    for (const band of [...ladder].sort((a, b) => rankOf(a.level_id) - rankOf(b.level_id))) {
      const to = smoothed.get(band.id);
      const from = { min: Number(band.min_amount), mid: Number(band.mid_amount), max: Number(band.max_amount) };
      if (!to || (to.min === from.min && to.mid === from.mid && to.max === from.max)) continue;
      next.set(band.id, to);
      changes.push({
        bandId: band.id,
        companyJobId: band.company_job_id,
        payZoneId: band.pay_zone_id,
        jobFamilyId: band.job_family_id,
        trackId: band.track,
        levelId: band.level_id,
        from: { min: money(from.min), mid: money(from.mid), max: money(from.max) },
        to: { min: money(to.min), mid: money(to.mid), max: money(to.max) },
      });
    }
  }
  return { changes, next };
}

export async function smoothBandSet(db: Knex, caller: Caller, setId: string, input: { progressionPercent: number; apply: boolean }): Promise<Schemas['BandSmoothResult']> {
  const scope = companyScope(caller);
  const units = await minorUnits(db);
  const run = async (trx: Knex): Promise<Change[]> => {
    const set = await requireSet(trx, scope, setId);
    if (input.apply) requireDraft(set);
    const rounding = parsePhilosophy(set.philosophy)?.rounding ?? DEFAULT_ROUNDING;
    const bands = await listBands(trx, scope, setId);
    const { changes, next } = smoothingChanges(bands, input.progressionPercent, rounding * 10 ** units.of(set.currency), set.currency);
    if (input.apply && changes.length) {
      const now = new Date().toISOString();
      for (const band of bands) {
        const to = next.get(band.id);
        if (!to) continue;
        await updateAtVersion(() => bandsOf(trx, scope).where({ id: band.id }), Number(band.version), { min_amount: to.min, mid_amount: to.mid, max_amount: to.max, updated_by: caller.userId, updated_at: now }, 'a band of this set');
      }
      await touchSet(trx, scope, setId);
    }
    return changes;
  };
  const changes = input.apply ? await db.transaction(run) : await run(db);
  return { applied: input.apply, progressionPercent: input.progressionPercent, changes, bandSet: await bandSetDetail(db, scope, setId) };
}
