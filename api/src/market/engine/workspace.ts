import { FOUNDER_LEVEL_ID } from '../../reference/catalog/index.js';
import type { ReleaseDimensions } from './participants.js';
import type { MarketRelease } from './release.js';

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
  /**
   * For selective filters: the records of group g that pass the current market filter are
   * matched[groupStart[g] .. matchedEnd[g]), valid while matchedPass[g] equals pass.
   */
  matched: Uint32Array;
  matchedEnd: Uint32Array;
  matchedPass: Uint32Array;
  /** Counts market filters; allocated lazily with matched. */
  pass: number;
}

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
      matched: new Uint32Array(0),
      matchedEnd: new Uint32Array(release.groupStart.length - 1),
      matchedPass: new Uint32Array(release.groupStart.length - 1),
      pass: 0,
    };
    workspaces.set(release, workspace);
  }
  return workspace;
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
