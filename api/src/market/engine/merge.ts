import { placeOf, type SortedRun } from './percentile.js';
import type { Workspace } from './workspace.js';

/**
 * A cell read from many groups (a level or family blend) or many countries of one currency is many
 * sorted runs; selecting a rank across k runs costs O(k² log² n) per figure, which made blends the
 * slowest requests. The runs of one currency (same divisor and scale) are merged into one here, in
 * O(n log k), so a cell has one run per currency and its figures are read as positions.
 *
 * The figures do not change: the merged run holds the same values, and where records tie the one
 * a figure reads may be another record of the same moved amount, whose record key has the same
 * lowest bit (the moved amount's parity, releaseColumns.ts), the only bit a figure reads from it.
 */
export function mergeRunsByCurrency(workspace: Workspace, runs: readonly SortedRun[]): readonly SortedRun[] {
  if (runs.length <= 2) return runs;
  let total = 0;
  for (const run of runs) total += run.to - run.from;
  reserveMerge(workspace, total);
  const merged: SortedRun[] = [];
  const done = new Uint8Array(runs.length);
  let offset = 0;
  for (let i = 0; i < runs.length; i++) {
    if (done[i] === 1) continue;
    const first = runs[i]!;
    const members: SortedRun[] = [];
    for (let j = i; j < runs.length; j++) {
      const run = runs[j]!;
      if (done[j] === 0 && run.divisor === first.divisor && run.scale === first.scale) {
        members.push(run);
        done[j] = 1;
      }
    }
    if (members.length === 1) {
      merged.push(first);
      continue;
    }
    merged.push(mergeMembers(workspace, members, offset));
    for (const run of members) offset += run.to - run.from;
  }
  return merged;
}

function reserveMerge(workspace: Workspace, size: number): void {
  if (workspace.mergedValues.length >= size) return;
  const length = Math.max(size, workspace.mergedValues.length * 2);
  workspace.mergedValues = new Float64Array(length);
  workspace.mergedPlaces = new Int32Array(length);
  workspace.spareValues = new Float64Array(length);
  workspace.sparePlaces = new Int32Array(length);
}

/** Merges runs of one currency into workspace space from `offset`, by rounds of pairwise merges. */
function mergeMembers(workspace: Workspace, members: readonly SortedRun[], offset: number): SortedRun {
  let values = workspace.mergedValues;
  let places = workspace.mergedPlaces;
  let otherValues = workspace.spareValues;
  let otherPlaces = workspace.sparePlaces;
  // Copied end to end, each run's values as stored and the place of each in the column.
  const ends: number[] = [];
  let at = offset;
  for (const run of members) {
    for (let i = run.from; i < run.to; i++) {
      values[at] = run.values[i]!;
      places[at++] = placeOf(run, i);
    }
    ends.push(at);
  }
  while (ends.length > 1) {
    const next: number[] = [];
    let start = offset;
    for (let p = 0; p < ends.length; p += 2) {
      const middle = ends[p]!;
      const end = ends[p + 1] ?? middle;
      mergeTwo({ values, places, into: otherValues, intoPlaces: otherPlaces }, start, middle, end);
      next.push(end);
      start = end;
    }
    ends.splice(0, ends.length, ...next);
    [values, otherValues] = [otherValues, values];
    [places, otherPlaces] = [otherPlaces, places];
  }
  const first = members[0]!;
  return { values, places, keys: first.keys, exact: first.exact, from: offset, to: at, divisor: first.divisor, scale: first.scale };
}

interface MergeSpace {
  values: Float64Array;
  places: Int32Array;
  into: Float64Array;
  intoPlaces: Int32Array;
}

/** Merges the ascending [start, middle) and [middle, end) of `values` into the same range of `into`. */
function mergeTwo(space: MergeSpace, start: number, middle: number, end: number): void {
  const { values, places, into, intoPlaces } = space;
  let a = start;
  let b = middle;
  let o = start;
  while (a < middle && b < end) {
    const fromB = values[b]! < values[a]!;
    const at = fromB ? b++ : a++;
    intoPlaces[o] = places[at]!;
    into[o++] = values[at]!;
  }
  while (a < middle) {
    intoPlaces[o] = places[a]!;
    into[o++] = values[a++]!;
  }
  while (b < end) {
    intoPlaces[o] = places[b]!;
    into[o++] = values[b++]!;
  }
}
