import type { Knex } from 'knex';
import { companyScope } from '../access/caller.js';
import type { components, operations } from '../contract-types.js';
import { badRequest } from '../kernel/errors.js';
import { updateAtVersion } from '../kernel/versions.js';
import { findLevel } from '../reference/catalog/index.js';
import { minorUnits } from '../money/minorUnits.js';
import { type Figures, type LadderBand, fittedProgression, smoothLadder } from './formulas.js';
import { parsePhilosophy } from './present.js';
import { bandSetDetail, requireDraft, requireSet } from './sets.js';
import { type BandJobRow, bandsOf, listBands, touchSet } from './store.js';
import type { ServiceContext } from '../kernel/operations.js';

type Schemas = components['schemas'];
type Change = Schemas['BandSmoothResult']['changes'][number];
type Ladder = Schemas['BandSmoothResult']['ladders'][number];
type SmoothRequest = NonNullable<operations['smoothBandSet']['requestBody']>['content']['application/json'];

/** How a set is smoothed: every ladder to one progression, or each to the one its own mids fit best. */
export type Smoothing = { curve: 'progression'; progressionPercent: number } | { curve: 'fitted' };

/** The progression a request leaves unsaid, and the range a fitted one is kept in (the request's own). */
const DEFAULT_PROGRESSION = 10;
const PROGRESSION_RANGE = { min: 1, max: 50 };

/** Rounding of a set never built: to the nearest 100 major units. */
const DEFAULT_ROUNDING = 100;

const rankOf = (levelId: string): number => findLevel(levelId)?.levelRank ?? 0;
const oneDecimal = (value: number): number => Math.round(value * 10) / 10;

/** A smoothing request as the service takes it; a progression given with the fitted curve is refused, not ignored. */
export function smoothingOf(body: SmoothRequest): Smoothing {
  if (body.curve !== 'fitted') return { curve: 'progression', progressionPercent: body.progressionPercent ?? DEFAULT_PROGRESSION };
  if (body.progressionPercent !== undefined) {
    throw badRequest('The fitted curve finds each ladder’s own progression; leave out progressionPercent.', [{ field: 'body.progressionPercent', message: 'is not accepted with the fitted curve' }]);
  }
  return { curve: 'fitted' };
}

/** The progression one ladder is smoothed to, and the one its mids fit (one decimal, as it is shown). */
function ladderProgression(smoothing: Smoothing, input: readonly LadderBand<string>[]): Pick<Ladder, 'fittedPercent' | 'progressionPercent'> {
  const fitted = fittedProgression(input);
  const fittedPercent = fitted === null ? null : oneDecimal(fitted);
  if (smoothing.curve === 'progression') return { fittedPercent, progressionPercent: smoothing.progressionPercent };
  const progressionPercent = fittedPercent === null ? null : Math.min(PROGRESSION_RANGE.max, Math.max(PROGRESSION_RANGE.min, fittedPercent));
  return { fittedPercent, progressionPercent };
}

/**
 * The changes smoothing makes to a set's bands: per family × track × zone, ordered by level rank. A
 * zone's bands are in one currency, unless its currency changed between edits: then each currency
 * is its own ladder. `unitMinor`: the rounding unit in minor units of a currency.
 */
export function smoothingChanges(
  bands: readonly BandJobRow[],
  smoothing: Smoothing,
  unitMinor: (currency: string) => number,
): { changes: Change[]; ladders: Ladder[]; next: Map<string, Figures> } {
  const byLadder = new Map<string, BandJobRow[]>();
  for (const band of bands) {
    const key = `${band.job_family_id}|${band.track}|${band.pay_zone_id}|${band.currency}`;
    const ladder = byLadder.get(key) ?? [];
    ladder.push(band);
    byLadder.set(key, ladder);
  }
  const changes: Change[] = [];
  const ladders: Ladder[] = [];
  const next = new Map<string, Figures>();
  for (const ladder of byLadder.values()) {
    const input: LadderBand<string>[] = ladder.map((band) => ({ id: band.id, rank: rankOf(band.level_id), min: Number(band.min_amount), mid: Number(band.mid_amount), max: Number(band.max_amount) }));
    const levels = new Set(input.filter((band) => band.mid > 0).map((band) => band.rank)).size;
    const [first] = ladder;
    if (!first || levels === 0) continue;
    const money = (amount: number) => ({ amount, currency: first.currency });
    const progression = ladderProgression(smoothing, input);
    ladders.push({ jobFamilyId: first.job_family_id, trackId: first.track, payZoneId: first.pay_zone_id, levels, ...progression });
    if (progression.progressionPercent === null) continue;
    const smoothed = smoothLadder(input, progression.progressionPercent, unitMinor(first.currency));
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
  return { changes, ladders, next };
}

export async function smoothBandSet(ctx: Pick<ServiceContext, 'db' | 'caller'>, setId: string, input: { smoothing: Smoothing; apply: boolean }): Promise<Schemas['BandSmoothResult']> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const units = await minorUnits(db);
  const run = async (trx: Knex): Promise<Pick<Schemas['BandSmoothResult'], 'changes' | 'ladders'>> => {
    const set = await requireSet(trx, scope, setId);
    if (input.apply) requireDraft(set);
    const rounding = parsePhilosophy(set.philosophy)?.rounding ?? DEFAULT_ROUNDING;
    const bands = await listBands(trx, scope, setId);
    const { changes, ladders, next } = smoothingChanges(bands, input.smoothing, (currency) => rounding * 10 ** units.of(currency));
    if (input.apply && changes.length) {
      const now = new Date().toISOString();
      for (const band of bands) {
        const to = next.get(band.id);
        if (!to) continue;
        await updateAtVersion(() => bandsOf(trx, scope).where({ id: band.id }), Number(band.version), { min_amount: to.min, mid_amount: to.mid, max_amount: to.max, updated_by: caller.userId, updated_at: now }, 'a band of this set');
      }
      await touchSet(trx, scope, setId);
    }
    return { changes, ladders };
  };
  const { changes, ladders } = input.apply ? await db.transaction(run) : await run(db);
  const progressionPercent = input.smoothing.curve === 'progression' ? input.smoothing.progressionPercent : null;
  return { applied: input.apply, curve: input.smoothing.curve, progressionPercent, ladders, changes, bandSet: await bandSetDetail(db, scope, setId) };
}
