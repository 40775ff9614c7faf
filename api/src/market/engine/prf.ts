import { randomBytes } from 'node:crypto';

/**
 * HMAC-SHA-256 (RFC 2104, FIPS 180-4) over short messages of 32-bit words, for disclosure control's
 * draws: the key's inner and outer blocks are compressed once, so each draw costs two compressions
 * and no allocation (node:crypto's createHmac costs an object and a re-keying per call, ~8× slower,
 * which a release of ten million records × six amounts cannot afford). Tested equal to createHmac.
 */

const K = Int32Array.from(
  [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
    0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
    0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
  ].map((k) => k | 0),
);
const IV = Int32Array.from([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19].map((h) => h | 0));

const schedule = new Int32Array(64);

/** One SHA-256 compression of the 16 words in `block` into `state` (8 words), in place. */
function compress(state: Int32Array, block: Int32Array): void {
  const w = schedule;
  for (let i = 0; i < 16; i++) w[i] = block[i]!;
  for (let i = 16; i < 64; i++) {
    const a = w[i - 15]!;
    const b = w[i - 2]!;
    const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
    const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
    w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
  }
  let a = state[0]!;
  let b = state[1]!;
  let c = state[2]!;
  let d = state[3]!;
  let e = state[4]!;
  let f = state[5]!;
  let g = state[6]!;
  let h = state[7]!;
  for (let i = 0; i < 64; i++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + s1 + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0;
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = (state[0]! + a) | 0;
  state[1] = (state[1]! + b) | 0;
  state[2] = (state[2]! + c) | 0;
  state[3] = (state[3]! + d) | 0;
  state[4] = (state[4]! + e) | 0;
  state[5] = (state[5]! + f) | 0;
  state[6] = (state[6]! + g) | 0;
  state[7] = (state[7]! + h) | 0;
}

/** Most words a message may hold: it must fit one block with SHA-256's padding (55 bytes). */
export const MAX_MESSAGE_WORDS = 13;
/** Bytes of a disclosure key (256 bits). */
export const DISCLOSURE_KEY_BYTES = 32;

/** A keyed PRF: HMAC-SHA-256 under one key, over messages of up to 13 big-endian 32-bit words. */
export class KeyedPrf {
  private readonly inner = new Int32Array(8);
  private readonly outer = new Int32Array(8);
  private readonly state = new Int32Array(8);
  private readonly block = new Int32Array(16);
  /** The message to hash: set words 0 … length − 1, then call digest(length). */
  readonly message = new Int32Array(MAX_MESSAGE_WORDS);
  /** The last digest's eight words. */
  readonly out = new Int32Array(8);

  constructor(key: Uint8Array) {
    if (key.length < 16 || key.length > 64) throw new Error('A disclosure key is 16 to 64 bytes');
    const padded = new Uint8Array(64);
    padded.set(key);
    const ipad = new Int32Array(16);
    const opad = new Int32Array(16);
    for (let i = 0; i < 16; i++) {
      const word = (padded[i * 4]! << 24) | (padded[i * 4 + 1]! << 16) | (padded[i * 4 + 2]! << 8) | padded[i * 4 + 3]!;
      ipad[i] = word ^ 0x36363636;
      opad[i] = word ^ 0x5c5c5c5c;
    }
    this.inner.set(IV);
    compress(this.inner, ipad);
    this.outer.set(IV);
    compress(this.outer, opad);
  }

  /** HMAC-SHA-256 of message[0 … words − 1] into out; returns out[0]. */
  digest(words: number): number {
    const block = this.block;
    const state = this.state;
    for (let i = 0; i < words; i++) block[i] = this.message[i]!;
    block[words] = 0x80000000 | 0;
    for (let i = words + 1; i < 15; i++) block[i] = 0;
    // Length in bits of the key block and the message.
    block[15] = (64 + words * 4) * 8;
    state.set(this.inner);
    compress(state, block);
    for (let i = 0; i < 8; i++) block[i] = state[i]!;
    block[8] = 0x80000000 | 0;
    for (let i = 9; i < 15; i++) block[i] = 0;
    block[15] = (64 + 32) * 8;
    state.set(this.outer);
    compress(state, block);
    this.out.set(state);
    return state[0]!;
  }
}

/** A fresh random 256-bit key, for releases built without the server's key (tests, benchmarks). */
export function randomDisclosureKey(): Uint8Array {
  return new Uint8Array(randomBytes(DISCLOSURE_KEY_BYTES));
}
