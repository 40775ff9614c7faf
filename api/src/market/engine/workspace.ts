import { FOUNDER_LEVEL_ID, type ConsistencyLabel, type MarketPercentile, type SampleBucket } from '../../reference/catalog/index.js';
import { MEASURE_IDS, type MeasureId, type ReleaseDimensions } from './participants.js';
import type { MarketRelease } from './release.js';
import { NOT_IN_COLUMN } from './releaseColumns.js';
import type { MedianUncertainty } from './uncertainty.js';

/** Id → code lookups for one release. */
export interface ReleaseIndex {
  family: ReadonlyMap<string, number>;
  level: ReadonlyMap<string, number>;
  location: ReadonlyMap<string, number>;
  industry: ReadonlyMap<string, number>;
  stage: ReadonlyMap<string, number>;
  ownership: ReadonlyMap<string, number>;
  founderType: ReadonlyMap<string, number>;
  /** Level code of E9, whose records the founder filter narrows; -1 when absent. */
  founderLevel: number;
  /** Whether some E9 record has no founder type (a founder filter then always narrows). */
  founderUnrecorded: boolean;
}

/**
 * Scratch memory reused by every query on a release. Queries are synchronous, so one set per
 * release is never shared by two queries at once.
 */
export interface Workspace {
  index: ReleaseIndex;
  /** Per company: records counted in the current cell; zeroed again after each cell. */
  tally: Uint32Array;
  touched: Uint32Array;
  /** The cell's values, as sorted runs laid end to end. */
  values: Float64Array;
  /** Where each value's record sits in its column (its record key and exact amount are there), at the same index. */
  places: Int32Array;
  /** For selective filters: one bit per place of a group's sorted column, marking the matched records' places (all clear between uses). */
  marks: Int32Array;
  /** Where the pieces of one currency end in values, before they are merged into one run. */
  pieceEnds: Uint32Array;
  mergeSpace: Float64Array;
  mergeKeySpace: Int32Array;
  /** A cell's runs of one currency merged into one (merge.ts), and the space the merge rounds alternate with. */
  mergedValues: Float64Array;
  mergedPlaces: Int32Array;
  spareValues: Float64Array;
  sparePlaces: Int32Array;
  /**
   * For selective filters: the records of group g that pass the current market filter are
   * matched[groupStart[g] .. matchedEnd[g]), valid while matchedPass[g] equals pass.
   */
  matched: Uint32Array;
  matchedEnd: Uint32Array;
  matchedPass: Uint32Array;
  /** Counts market filters; allocated lazily with matched. */
  pass: number;
  /**
   * Shared company tallies: amounts held by the same records (base and total cash; the equity
   * amounts) are one presence class (presenceClass). A cell's amounts of one class are made of the
   * same records, so their companies, largest and four largest companies and generated records are
   * counted once: for class k they are sharedStats[k × 4 …] while sharedCell[k] is the current cell.
   */
  cell: number;
  sharedCell: Float64Array;
  sharedStats: Uint32Array;
  presence: Map<MeasureId, number>;
  presenceModels: MeasureId[];
  /** Each company's kind (stage × ownership × industry) and each kind's records (scope.ts), made on first use. */
  companyKinds: { kind: Uint32Array; records: Float64Array } | null;
  /**
   * The pay-mass verdicts (payMass.ts) of whole slices read in one currency, per amount column and
   * pay-mass rule, filled as slices are judged: 0 not judged yet, else PAY_MASS_PASSES or
   * PAY_MASS_FAILS at a slice's index in MeasureColumn.sliceStats ÷ SLICE_STATS. A whole slice is
   * the same records in every request, and the checks compare shares of its pay, which neither a
   * currency's rate nor a scale changes: it is judged once per release.
   */
  sliceVerdicts: Map<string, Uint8Array>;
  /** The published outcomes of whole slices, per amount, scale, currency rate and rule (query.ts, keptCellsOf). */
  keptCells: Map<string, (CellOutcome | undefined)[]>;
}

/** What a cell publishes, before it is laid out for one request: kept per whole slice (keptCellsOf). */
export interface CellOutcome {
  published: boolean;
  /** All seven percentiles, published (moved and rounded), in the catalog's order; null when withheld. */
  seven: readonly number[] | null;
  uncertainty: MedianUncertainty | null;
  counts: { companies: number; employees: number };
  syntheticShare: number | null;
  /**
   * A kept outcome's parts as a cell shows them, made once for the percentiles asked and shared,
   * frozen, by every cell that reads the outcome back: a broad request reads thousands of kept
   * outcomes, and making these afresh for each was most of what it allocated.
   */
  shown?: ShownOutcome;
}

/** The frozen parts of a kept outcome a cell shows (CellOutcome.shown), for one list of percentiles and one broad type. */
export interface ShownOutcome {
  key: string;
  broadCompType: string;
  percentiles: readonly { percentile: MarketPercentile; value: number }[] | null;
  sample: Readonly<{ companies: number | null; employees: number | null; companyBucket: SampleBucket; employeeBucket: SampleBucket }>;
  consistency: ConsistencyLabel | null;
  medianUncertainty: Readonly<MedianUncertainty> | null;
}


export const PAY_MASS_PASSES = 1;
export const PAY_MASS_FAILS = 2;

const workspaces = new WeakMap<MarketRelease, Workspace>();

export function workspaceOf(release: MarketRelease): Workspace {
  let workspace = workspaces.get(release);
  if (!workspace) {
    workspace = {
      index: indexRelease(release),
      tally: new Uint32Array(release.companies.count),
      touched: new Uint32Array(release.companies.count),
      values: new Float64Array(1024),
      places: new Int32Array(1024),
      marks: new Int32Array(1024),
      pieceEnds: new Uint32Array(release.runCurrencies.length),
      mergeSpace: new Float64Array(0),
      mergeKeySpace: new Int32Array(0),
      mergedValues: new Float64Array(0),
      mergedPlaces: new Int32Array(0),
      spareValues: new Float64Array(0),
      sparePlaces: new Int32Array(0),
      matched: new Uint32Array(0),
      matchedEnd: new Uint32Array(release.groupStart.length - 1),
      matchedPass: new Uint32Array(release.groupStart.length - 1),
      pass: 0,
      cell: 0,
      sharedCell: new Float64Array(MEASURE_IDS.length).fill(-1),
      sharedStats: new Uint32Array(MEASURE_IDS.length * 4),
      presence: new Map(),
      presenceModels: [],
      companyKinds: null,
      sliceVerdicts: new Map(),
      keptCells: new Map(),
    };
    workspaces.set(release, workspace);
  }
  return workspace;
}

/**
 * The presence class of an amount column: two columns are of one class when exactly the same records
 * hold an amount in both. Found on first use, by comparing with one column of each class known.
 */
export function presenceClass(release: MarketRelease, workspace: Workspace, measure: MeasureId): number {
  const known = workspace.presence.get(measure);
  if (known !== undefined) return known;
  const position = release.measures[measure].position;
  let found = workspace.presenceModels.findIndex((model) => samePresence(position, release.measures[model].position));
  if (found < 0) {
    found = workspace.presenceModels.length;
    workspace.presenceModels.push(measure);
  }
  workspace.presence.set(measure, found);
  return found;
}

function samePresence(a: Uint32Array, b: Uint32Array): boolean {
  if (a.length !== b.length) return false;
  for (let r = 0; r < a.length; r++) if ((a[r] === NOT_IN_COLUMN) !== (b[r] === NOT_IN_COLUMN)) return false;
  return true;
}

/** The verdicts of whole slices of one amount column under one pay-mass rule (Workspace.sliceVerdicts). */
export function sliceVerdictsOf(release: MarketRelease, workspace: Workspace, of: { measure: MeasureId; rule: string }): Uint8Array {
  const key = `${of.measure} ${of.rule}`;
  let verdicts = workspace.sliceVerdicts.get(key);
  if (!verdicts) {
    verdicts = new Uint8Array((release.groupStart.length - 1) << release.sliceRuns);
    workspace.sliceVerdicts.set(key, verdicts);
  }
  return verdicts;
}

/** Makes sure the value buffers hold at least `size` values. */
export function reserveValues(workspace: Workspace, size: number): void {
  if (workspace.values.length >= size) return;
  const length = Math.max(size, workspace.values.length * 2);
  workspace.values = new Float64Array(length);
  workspace.places = new Int32Array(length);
}

/** Starts a market filter: every group's matched records are stale until collected again. */
export function nextPass(workspace: Workspace, recordCount: number): void {
  if (workspace.matched.length < recordCount) workspace.matched = new Uint32Array(recordCount);
  workspace.pass = (workspace.pass + 1) >>> 0;
  if (workspace.pass === 0) {
    workspace.matchedPass.fill(0);
    workspace.pass = 1;
  }
}

function indexRelease(release: MarketRelease): ReleaseIndex {
  const { dimensions, records, groupStart } = release;
  const codes = (ids: readonly string[], offset = 0): Map<string, number> => new Map(ids.map((id, code) => [id, code + offset]));
  const level = codes(dimensions.levels);
  return {
    family: codes(dimensions.families),
    level,
    location: codes(dimensions.locations),
    industry: codes(dimensions.industries),
    stage: codes(dimensions.stages),
    ownership: codes(dimensions.ownershipGroups),
    founderType: codes(dimensions.founderTypes, 1),
    founderLevel: level.get(FOUNDER_LEVEL_ID) ?? -1,
    founderUnrecorded: hasUnrecordedFounder(dimensions, records.founder, groupStart, level.get(FOUNDER_LEVEL_ID) ?? -1),
  };
}

function hasUnrecordedFounder(dimensions: ReleaseDimensions, founder: Uint8Array, groupStart: Uint32Array, founderLevel: number): boolean {
  if (founderLevel < 0) return false;
  for (let f = 0; f < dimensions.families.length; f++) {
    const group = f * dimensions.levels.length + founderLevel;
    for (let r = groupStart[group]!; r < groupStart[group + 1]!; r++) if (founder[r] === 0) return true;
  }
  return false;
}
