/*
 * Dated histories (pay records, job changes, a vendor's compensation entries): which entry is in force
 * on a day. One rule for every area that reads a history: imports, syncs and corrections kept in
 * Paybench choose the same entry.
 */

export interface InForceOptions {
  /** For someone who has not started yet, the earliest entry to come (default); false: none. */
  orUpcoming?: boolean;
}

/**
 * The entry of a dated history in force on `day` (YYYY-MM-DD): the latest started on or before it
 * (of two on one day, the later in the list: its correction); else, unless `orUpcoming` is false,
 * the earliest one to come.
 */
export function inForce<Entry>(entries: readonly Entry[], startOf: (entry: Entry) => string, day: string, options: InForceOptions = {}): Entry | undefined {
  let found: Entry | undefined;
  let upcoming: Entry | undefined;
  for (const entry of entries) {
    const start = startOf(entry);
    if (start <= day) {
      if (!found || start >= startOf(found)) found = entry;
    } else if (!upcoming || start < startOf(upcoming)) upcoming = entry;
  }
  return found ?? (options.orUpcoming === false ? undefined : upcoming);
}

/** Groups records by a key, keeping their order. */
export function groupBy<Item>(items: Iterable<Item>, keyOf: (item: Item) => string): Map<string, Item[]> {
  const groups = new Map<string, Item[]>();
  for (const item of items) {
    const key = keyOf(item);
    const list = groups.get(key);
    if (list) list.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}
