/**
 * Answers an area keeps between requests (a worksheet or a team table page until the next commit, a
 * market answer of the served release) are one object shared by every request that reads them. Serialising such an answer again on every send is most of what a
 * kept read costs under load (the string, its bytes, and the garbage of both), so the router sends
 * the bytes of the first serialisation again. A value handed to `keptForSending` or `keptReply` must never change
 * afterwards: whoever keeps it hands out that same object, and replaces it rather than mutating it.
 */

const kept = new WeakSet<object>();
/** Whole replies kept unchanged (a `data` beside a `page`), sent as they are. */
const keptReplies = new WeakSet<object>();
/** The bytes of `{"data":…}` per kept value, or of a kept reply; they go when the value goes. */
const bodies = new WeakMap<object, Buffer>();

/** Marks `value` as kept unchanged: answered as `{ data: value }`, it is serialised once. */
export function keptForSending<T extends object>(value: T): T {
  kept.add(value);
  return value;
}

/** Marks a whole reply (`{ data, page }`) as kept unchanged: it is serialised once, as it is. */
export function keptReply<T extends object>(reply: T): T {
  keptReplies.add(reply);
  return reply;
}

/**
 * The bytes of `body` when it is a kept reply, or exactly `{ data: value }` with a kept `value`,
 * serialised on the first call; undefined for any other body (the router serialises it itself).
 */
export function keptBody(body: unknown): Buffer | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  if (keptReplies.has(body)) {
    let bytes = bodies.get(body);
    if (!bytes) {
      bytes = Buffer.from(JSON.stringify(body));
      bodies.set(body, bytes);
    }
    return bytes;
  }
  const data = (body as { data?: unknown }).data;
  if (typeof data !== 'object' || data === null || !kept.has(data)) return undefined;
  for (const key in body) if (key !== 'data') return undefined;
  let bytes = bodies.get(data);
  if (!bytes) {
    bytes = Buffer.from(JSON.stringify({ data }));
    bodies.set(data, bytes);
  }
  return bytes;
}
