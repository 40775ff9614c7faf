import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import PDFDocument from 'pdfkit';
import type { CompanyScope } from '../access/caller.js';

/*
 * Images documents draw (the company's logo), kept by their content: one row per company and SHA-256
 * of the bytes, inserted once and never changed. A document version names the hash in its branding,
 * so its PDF draws the very image it was issued with, whatever the company uploads later.
 */

/** Documents draw PNG and JPEG (what pdfkit embeds); at most 100 KB, like every uploaded image. */
export const MAX_DOCUMENT_IMAGE_BYTES = 100_000;
const MAX_SIDE = 4000;

export type DocumentImageType = 'image/png' | 'image/jpeg';

export interface DocumentImage {
  sha256: string;
  mediaType: DocumentImageType;
  width: number;
  height: number;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG's size from its header chunk (IHDR, always first), or null when it is not a well-formed start of one. */
function pngSize(bytes: Buffer): { width: number; height: number } | null {
  if (bytes.length < 33 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return null;
  if (bytes.readUInt32BE(8) !== 13 || bytes.subarray(12, 16).toString('latin1') !== 'IHDR') return null;
  const [bitDepth, colourType] = [bytes[24] ?? 0, bytes[25] ?? 0];
  if (![1, 2, 4, 8, 16].includes(bitDepth) || ![0, 2, 3, 4, 6].includes(colourType)) return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** A JPEG's size from its first frame header (SOFn), walking the markers; null when there is none. */
function jpegSize(bytes: Buffer): { width: number; height: number } | null {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1] ?? 0;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    const length = bytes.readUInt16BE(at + 2);
    if (length < 2) return null;
    const frame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (frame) return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    at += 2 + length;
  }
  return null;
}

/** Whether pdfkit can read the image (it parses it fully when placed on a page). */
function drawable(bytes: Buffer): boolean {
  try {
    const doc = new PDFDocument({ autoFirstPage: true });
    doc.image(bytes, 0, 0, { width: 10 });
    return true;
  } catch {
    return false;
  }
}

/**
 * The image the bytes are, read from the bytes themselves (never from a name or a claimed type), or
 * why it cannot be a document's image.
 */
export function readDocumentImage(bytes: Buffer): DocumentImage | { problem: string } {
  if (bytes.length > MAX_DOCUMENT_IMAGE_BYTES) return { problem: `is ${Math.ceil(bytes.length / 1000)} KB; an image may be at most ${MAX_DOCUMENT_IMAGE_BYTES / 1000} KB` };
  const png = pngSize(bytes);
  const jpeg = png ? null : jpegSize(bytes);
  const size = png ?? jpeg;
  if (!size) return { problem: 'is not a PNG or JPEG image' };
  if (size.width < 1 || size.height < 1 || size.width > MAX_SIDE || size.height > MAX_SIDE) return { problem: `must be 1 to ${MAX_SIDE} pixels on each side` };
  if (!drawable(bytes)) return { problem: 'is damaged: it cannot be read as an image' };
  return { sha256: createHash('sha256').update(bytes).digest('hex'), mediaType: png ? 'image/png' : 'image/jpeg', ...size };
}

interface ImageRow {
  company_id: string;
  sha256: string;
  media_type: string;
  width: number;
  height: number;
  bytes: Buffer;
  created_at: string | Date;
}

/** Keeps an image the company's documents may draw; the same bytes twice are one row. Throws on bytes `readDocumentImage` refuses. */
export async function storeDocumentImage(db: Knex, scope: CompanyScope, bytes: Buffer): Promise<DocumentImage> {
  const image = readDocumentImage(bytes);
  if ('problem' in image) throw new Error(`not a document image: ${image.problem}`);
  const row: ImageRow = { company_id: scope.companyId, sha256: image.sha256, media_type: image.mediaType, width: image.width, height: image.height, bytes, created_at: new Date().toISOString() };
  await db('document_images').insert(row).onConflict(['company_id', 'sha256']).ignore();
  return image;
}

/** The company's images of these hashes, by hash (a hash it does not have is simply absent). */
export async function documentImages(db: Knex, scope: CompanyScope, hashes: Iterable<string>): Promise<Map<string, Buffer>> {
  const wanted = [...new Set(hashes)];
  if (!wanted.length) return new Map();
  const rows = (await db('document_images').where({ company_id: scope.companyId }).whereIn('sha256', wanted).select('sha256', 'bytes')) as Pick<ImageRow, 'sha256' | 'bytes'>[];
  return new Map(rows.map((row) => [row.sha256, Buffer.from(row.bytes)]));
}
