import { Pacer } from './pace.js';

/*
 * JSON.parse of a vendor's whole answer (50,000 pay rows, several megabytes) holds the event loop
 * for as long as it takes. A large answer is instead parsed in slices by JSON.parse itself: one pass
 * finds where the elements of the top-level array (or of the arrays directly inside a top-level
 * object, as in `{ "employees": [ … ] }`) begin and end, and each slice of a few dozen kilobytes is
 * parsed on its own, the event loop running between slices. The value is the same as JSON.parse's,
 * and text JSON.parse refuses is refused too (a SyntaxError).
 */

/** Below this, one JSON.parse takes about a millisecond: no slicing. */
const SMALL = 64 * 1024;
/** Text parsed in one go: about a millisecond of JSON.parse. */
const SLICE = 32 * 1024;
/** Characters scanned between looks at the pacer. */
const SCAN_STEP = 16 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/** A container's extent and the positions of its own commas (those of its direct members). */
interface Extent {
  open: number;
  close: number;
  commas: number[];
}

/** The top-level container, and the arrays that are its direct members, by their opening position. */
interface Layout {
  top: Extent;
  arrays: Map<number, Extent>;
}

const invalid = (): SyntaxError => new SyntaxError('Unexpected text in JSON');

/** The end of the string opened at `at` (the position of its closing quote). */
function stringEnd(text: string, at: number): number {
  let end = text.indexOf('"', at + 1);
  for (;;) {
    if (end < 0) throw invalid();
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
}

/** One pass over the text: the top container's members, and those of arrays one level inside it. */
async function layoutOf(text: string, start: number, pacer: Pacer): Promise<Layout> {
  const top: Extent = { open: start, close: -1, commas: [] };
  const arrays = new Map<number, Extent>();
  let inner: Extent | undefined;
  let depth = 0;
  let nextLook = start + SCAN_STEP;
  for (let at = start; at < text.length; at += 1) {
    if (at >= nextLook) {
      nextLook = at + SCAN_STEP;
      if (pacer.due) await pacer.pause();
    }
    const code = text.charCodeAt(at);
    if (code === QUOTE) at = stringEnd(text, at);
    else if (code === COMMA) {
      if (depth === 1) top.commas.push(at);
      else if (depth === 2 && inner) inner.commas.push(at);
    } else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      depth += 1;
      if (depth === 2 && code === OPEN_ARRAY) {
        inner = { open: at, close: -1, commas: [] };
        arrays.set(at, inner);
      }
    } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) {
      depth -= 1;
      if (depth === 1 && inner) {
        if (code !== CLOSE_ARRAY) throw invalid();
        inner.close = at;
        inner = undefined;
      } else if (depth === 0) {
        top.close = at;
        const opened = text.charCodeAt(start);
        if ((opened === OPEN_ARRAY) !== (code === CLOSE_ARRAY) || text.slice(at + 1).trim()) throw invalid();
        return { top, arrays };
      }
    }
  }
  throw invalid();
}

/** Member `index` of `extent` as a [from, to) span of the text: between its own commas. */
function span(extent: Extent, index: number): [number, number] {
  const from = index === 0 ? extent.open : (extent.commas[index - 1] as number);
  const to = index === extent.commas.length ? extent.close : (extent.commas[index] as number);
  return [from + 1, to];
}

/** The elements of an array, parsed a slice of elements at a time. */
async function arrayOf(text: string, extent: Extent, pacer: Pacer): Promise<unknown[]> {
  const members = extent.commas.length + 1;
  if (members === 1 && !text.slice(extent.open + 1, extent.close).trim()) return [];
  const out: unknown[] = [];
  for (let first = 0; first < members; ) {
    let last = first;
    const [from] = span(extent, first);
    while (last + 1 < members && span(extent, last)[1] - from < SLICE) last += 1;
    const parsed = JSON.parse(`[${text.slice(from, span(extent, last)[1])}]`) as unknown[];
    // An empty element ("[1,,2]", "[1,]") alone in a slice would parse as no element at all.
    if (parsed.length !== last - first + 1) throw invalid();
    for (const value of parsed) out.push(value);
    first = last + 1;
    if (pacer.due) await pacer.pause();
  }
  return out;
}

/** An object member `"key": value` as its key and where its value begins. */
function keyOf(text: string, [from, to]: [number, number]): { key: string; valueAt: number } {
  let at = from;
  while (at < to && text.charCodeAt(at) !== QUOTE) at += 1;
  if (at >= to) throw invalid();
  const end = stringEnd(text, at);
  const key = JSON.parse(text.slice(at, end + 1)) as string;
  const colon = text.indexOf(':', end + 1);
  if (colon < 0 || colon >= to || text.slice(from, at).trim() || text.slice(end + 1, colon).trim()) throw invalid();
  let valueAt = colon + 1;
  while (valueAt < to && /\s/.test(text.charAt(valueAt))) valueAt += 1;
  return { key, valueAt };
}

/** An object's members, each large array among them parsed a slice at a time. */
async function objectOf(text: string, layout: Layout, pacer: Pacer): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const members = layout.top.commas.length + 1;
  if (members === 1 && !text.slice(layout.top.open + 1, layout.top.close).trim()) return out;
  for (let index = 0; index < members; index += 1) {
    const member = span(layout.top, index);
    const { key, valueAt } = keyOf(text, member);
    const array = layout.arrays.get(valueAt);
    let value: unknown;
    if (array && array.close - array.open > SLICE) {
      if (text.slice(array.close + 1, member[1]).trim()) throw invalid();
      value = await arrayOf(text, array, pacer);
    } else value = JSON.parse(text.slice(valueAt, member[1]));
    // As JSON.parse does: an own property whatever its name ("__proto__" included); the last of a repeated key wins.
    Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
    if (pacer.due) await pacer.pause();
  }
  return out;
}

/**
 * JSON.parse that hands the event loop back (through `pacer`) while parsing a large answer: a
 * top-level array, or an object whose large members are arrays, is parsed a slice at a time.
 */
export async function parseJsonPaced(text: string, pacer = new Pacer()): Promise<unknown> {
  let start = 0;
  while (start < text.length && /\s/.test(text.charAt(start))) start += 1;
  const first = text.charCodeAt(start);
  if (text.length < SMALL || (first !== OPEN_ARRAY && first !== OPEN_OBJECT)) return JSON.parse(text);
  const layout = await layoutOf(text, start, pacer);
  return first === OPEN_ARRAY ? arrayOf(text, layout.top, pacer) : objectOf(text, layout, pacer);
}
