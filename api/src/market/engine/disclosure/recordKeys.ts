import { createCipheriv, createHmac, type Cipher } from 'node:crypto';
import type { MeasureId, ReleaseDimensions } from '../participants.js';

/**
 * Disclosure control for published market figures, after the privacy rule has let a cell through:
 * the cell key method of flexible table builders (the Australian Bureau of Statistics' TableBuilder),
 * applied to percentiles. See docs/market-privacy.md. This file holds what every record is given when
 * the release is built; cellDraws.ts what a published cell draws, and its counts; figures.ts the
 * figures it shows.
 *
 * - Every record has a key, a PRF output (AES-256 under a subkey of the 256-bit disclosure key) of
 *   what it is (company, place, family × level × measure, amount), computed when the release is
 *   built; a cell's key is the sum of its records' keys, so the same records give the same key however
 *   the request reached them (order, path, currency, an empty location added), in every release.
 * - Every record is moved when the release is built by its own factor, 1 ± 7.5–13%, drawn from a PRF
 *   of who it is (movedAmount), and the columns are sorted by the moved amounts: every figure is a
 *   percentile of moved pay, and a person moves the same way in every cell and release.
 * - Every record also weighs in published head counts by its own count weight (COUNT_WEIGHT_QUARTERS),
 *   and a participant's record is known by its person tag (personTag), so its move follows the person.
 */

/** The 256-bit subkeys of one disclosure key, each for one use (domain separation). */
export function subkey(key: Uint8Array, purpose: string): Buffer {
  return createHmac('sha256', key).update(`paybench market disclosure: ${purpose}`).digest();
}

/** A 32-bit PRF tag of an identifier (a company, place, family × level × measure), stable across releases. */
function tagOf(tags: Buffer, what: string): number {
  return createHmac('sha256', tags).update(what).digest().readInt32LE(0);
}

/** Records keyed per AES call: one update of 128 KiB. */
const KEY_BATCH = 4096;
/** 'whom', marking the identity block (in its family × level × measure tag's place), which a tag cannot be told from otherwise. */
const IDENTITY_BLOCK = 0x77686f6d;
/**
 * 'prsn', marking the identity block of a record known by its person tag rather than its rank: the
 * tag and the measure alone, so the move follows the person to another place, family or level.
 */
const PERSON_BLOCK = 0x7072736e;

/**
 * A participant's person tag: HMAC-SHA-256 under a subkey of the disclosure key of its company's id
 * and its employee's id, 32 bits, never 0 (0 is "unknown"). Stable across releases, so a person's
 * move is the same in each; nothing outside the server can compute or invert it.
 */
export function personTag(key: Uint8Array, companyId: string, employeeId: string): number {
  return createHmac('sha256', subkey(key, 'participant persons')).update(`${companyId}\u0000${employeeId}`).digest().readInt32LE(0) || 1;
}

/**
 * Each record's own move, applied when the release is built (docs/market-privacy.md, moving records):
 * its amount is multiplied by 1 ± (RECORD_MOVE_LEAST … RECORD_MOVE_MOST), the side and the size drawn
 * from a PRF of who the record is, not of its amount, so the same person moves the same way in every
 * cell and every release, and nothing a colluder knows about anyone else tells them how far the
 * target moved. Every figure is then made of moved amounts.
 */
export const RECORD_MOVE_LEAST = 0.075;
export const RECORD_MOVE_MOST = 0.13;

/**
 * The moved amount of a record from its identity draw (32 bits: bit 0 the side, 1 down; bits 16 … 31
 * the size). Its parity is its side, so records that end at one moved amount move a figure made of
 * them the same way whichever of them a read path puts at the figure's rank. Zero stays zero.
 */
export function movedAmount(amount: number, draw: number): number {
  if (amount <= 0) return amount;
  const down = draw & 1;
  const size = RECORD_MOVE_LEAST + ((draw >>> 16) / 65536) * (RECORD_MOVE_MOST - RECORD_MOVE_LEAST);
  const moved = amount * (down === 1 ? 1 - size : 1 + size);
  return Math.min(2 ** 31 - 1 - 1, 2 * Math.floor(moved / 2)) + down;
}

/**
 * Record keys and record moves of one amount column, computed while the release is built: AES-256
 * (a PRP, so a PRF on one 16-byte block, as AES-CMAC-PRF is) under a subkey of the disclosure key of
 * two blocks per record. The first, the record's company tag, place tag, family × level × measure tag
 * and amount, gives its key (which cells sum); the second gives its move (movedAmount): the person's
 * tag and the measure's, or for a record without one (generated, or stored before tags) the same
 * tags as the key and its rank among its company's records of that place and family × level (by
 * amount). Either is a person's identity, which a pay rise or the aging of pay between builds does
 * not change. The
 * key's lowest bit is then the moved amount's side. The tags are HMAC-SHA-256 of the identifiers, so
 * an unchanged record has the same key and move in every release. Batched through one cipher: ten
 * million records cost seconds, not the minutes one HMAC each would.
 */
export class RecordKeyer {
  private readonly tags: Buffer;
  private readonly recordSubkey: Buffer;
  private cipher: Cipher;
  private readonly companyTags: Int32Array;
  private readonly places: readonly string[];
  private readonly placeTags: Int32Array;
  private readonly placeTagged: Uint8Array;
  private readonly families: readonly string[];
  private readonly levelIds: readonly string[];
  private readonly groupTags: Int32Array;
  private readonly groupTagged: Uint8Array;
  private readonly levels: number;
  private measure: MeasureId = 'base';
  private measureTag = 0;
  private readonly batch = Buffer.alloc(KEY_BATCH * 32);
  private pending = 0;
  private written = 0;
  private out: Int32Array = new Int32Array(0);
  private draws: Int32Array = new Int32Array(0);

  constructor(key: Uint8Array, of: { dimensions: ReleaseDimensions; companyIds: readonly string[] }) {
    this.tags = subkey(key, 'identifier tags');
    this.recordSubkey = subkey(key, 'record keys');
    this.cipher = this.newCipher();
    this.companyTags = Int32Array.from(of.companyIds, (id) => tagOf(this.tags, `company ${id}`));
    // Tags of places and family × level are made when a record first needs them: a release names 256 places and hundreds of jobs.
    this.places = of.dimensions.locations;
    this.placeTags = new Int32Array(this.places.length);
    this.placeTagged = new Uint8Array(this.places.length);
    this.families = of.dimensions.families;
    this.levelIds = of.dimensions.levels;
    this.levels = of.dimensions.levels.length;
    this.groupTags = new Int32Array(this.families.length * this.levels);
    this.groupTagged = new Uint8Array(this.families.length * this.levels);
  }

  /** Starts the keys (into `out`) and identity draws (into `draws`, see movedAmount) of one amount column. */
  column(measure: MeasureId, out: Int32Array, draws: Int32Array): void {
    this.measure = measure;
    this.measureTag = tagOf(this.tags, `measure ${measure}`);
    this.groupTagged.fill(0);
    this.out = out;
    this.draws = draws;
    this.written = 0;
    this.pending = 0;
  }

  private newCipher(): Cipher {
    return createCipheriv('aes-256-ecb', this.recordSubkey, null).setAutoPadding(false);
  }

  private placeTag(location: number): number {
    if (this.placeTagged[location] === 0) {
      this.placeTags[location] = tagOf(this.tags, `place ${this.places[location]}`);
      this.placeTagged[location] = 1;
    }
    return this.placeTags[location]!;
  }

  private groupTag(family: number, level: number): number {
    const group = family * this.levels + level;
    if (this.groupTagged[group] === 0) {
      this.groupTags[group] = tagOf(this.tags, `${this.measure} ${this.families[family]} ${this.levelIds[level]}`);
      this.groupTagged[group] = 1;
    }
    return this.groupTags[group]!;
  }

  /**
   * A record: `rank` is its place among its company's records of this place and family × level, by
   * amount; `person` its person tag (personTag), 0 when unknown. A record with a person tag draws its
   * move from it and the measure, not from its rank or where it sits: colleagues joining, leaving or
   * passing it in pay change nothing, nor does the person's move to another place, family or level.
   */
  add(record: { family: number; level: number; company: number; location: number; amount: number; rank: number; person: number }): void {
    const at = this.pending * 32;
    const group = this.groupTag(record.family, record.level);
    const company = this.companyTags[record.company]!;
    const place = this.placeTag(record.location);
    this.batch.writeInt32LE(company, at);
    this.batch.writeInt32LE(place, at + 4);
    this.batch.writeInt32LE(group, at + 8);
    this.batch.writeInt32LE(record.amount | 0, at + 12);
    if (record.person === 0) {
      this.batch.writeInt32LE(company, at + 16);
      this.batch.writeInt32LE(place, at + 20);
      this.batch.writeInt32LE(IDENTITY_BLOCK, at + 24);
      this.batch.writeInt32LE((group ^ Math.imul(record.rank, 0x9e3779b1)) | 0, at + 28);
    } else {
      // The company's code is left out: participants are numbered afresh in every release; the tag holds the company.
      this.batch.writeInt32LE(record.person, at + 16);
      this.batch.writeInt32LE(this.measureTag, at + 20);
      this.batch.writeInt32LE(PERSON_BLOCK, at + 24);
      this.batch.writeInt32LE(0, at + 28);
    }
    if (++this.pending === KEY_BATCH) this.flush();
  }

  finish(): void {
    this.flush();
    this.cipher.final();
    this.cipher = this.newCipher();
  }

  private flush(): void {
    if (this.pending === 0) return;
    const sealed = this.cipher.update(this.batch.subarray(0, this.pending * 32));
    for (let i = 0; i < this.pending; i++) {
      this.draws[this.written] = sealed.readInt32LE(i * 32 + 16);
      this.out[this.written++] = sealed.readInt32LE(i * 32);
    }
    this.pending = 0;
  }
}

/**
 * Each record's own weight in published head counts, on top of its 1 (docs/market-privacy.md,
 * counts): ±1.25 … 3 records in quarters, from four bits of the record's identity draw of base pay
 * (who it is, not its amount or the amount asked for), kept in the top four bits of its record key in
 * every column. A cell's head count is published from its records plus their weights, so two cells
 * that differ by one person differ, before rounding, by 1 plus that person's weight, the same in every
 * cell, request and release: averaging any number of differenced pairs converges on 1 + weight
 * (−2 … −0.25 or 2.25 … 4), never on 1. The record's 1 is the count; the weight is what no average removes.
 */
export const COUNT_WEIGHT_QUARTERS = Int8Array.from({ length: 16 }, (_, bits) => ((bits & 8) === 0 ? 1 : -1) * (5 + (bits & 7)));

/** The four count-weight bits of an identity draw (bits 1 … 4: movedAmount reads bit 0 and bits 16 … 31). */
export function countWeightBits(draw: number): number {
  return (draw >>> 1) & 15;
}

/** A record key's count weight in quarters (its top four bits). */
export const countWeightOf = (recordKey: number): number => COUNT_WEIGHT_QUARTERS[recordKey >>> 28]!;
