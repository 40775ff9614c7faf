import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KeyedPrf } from './prf.js';

describe('the keyed PRF of disclosure draws', () => {
  it('is HMAC-SHA-256 as node:crypto computes it, for every message length and key size it takes', () => {
    for (const keyBytes of [16, 32, 64]) {
      const key = Buffer.from(Array.from({ length: keyBytes }, (_, i) => (i * 37 + keyBytes) & 255));
      const prf = new KeyedPrf(key);
      for (let words = 0; words <= 13; words++) {
        const message = Buffer.alloc(words * 4);
        for (let i = 0; i < words; i++) {
          prf.message[i] = (i * 0x9e3779b1) | 0;
          message.writeInt32BE(prf.message[i]!, i * 4);
        }
        prf.digest(words);
        const ours = Buffer.alloc(32);
        prf.out.forEach((word, i) => ours.writeInt32BE(word, i * 4));
        expect(ours.toString('hex')).toBe(createHmac('sha256', key).update(message).digest('hex'));
      }
    }
  });
});
