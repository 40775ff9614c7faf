import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { HttpError, nulRefused } from '../kernel/errors.js';
import { checkJsonText } from './inputGuards.js';

export interface ParsedBody {
  hasBody: boolean;
  body: unknown;
}

function declaredLength(ctx: Context): number | undefined {
  const header = ctx.get('content-length');
  return header ? Number(header) : undefined;
}

/** Reads a JSON body no larger than `limit` bytes; other media types are refused with 415. */
export async function readJsonBody(ctx: Context, limit: number): Promise<ParsedBody> {
  const length = declaredLength(ctx);
  const chunked = Boolean(ctx.get('transfer-encoding'));
  if (!chunked && (length === undefined || length === 0)) return { hasBody: false, body: undefined };
  if (length !== undefined && length > limit) {
    throw new HttpError(413, 'payload_too_large', { message: `The request body is larger than ${limit} bytes.` });
  }
  if (!ctx.is('application/json', 'application/*+json')) {
    throw new HttpError(415, 'unsupported_media_type', { message: 'Send the request body as application/json.' });
  }
  const text = await getRawBody(ctx.req, { limit, length, encoding: 'utf8' });
  if (text.trim() === '') return { hasBody: false, body: undefined };
  checkJsonText(text);
  try {
    return { hasBody: true, body: JSON.parse(text) as unknown };
  } catch {
    throw new HttpError(400, 'malformed_json', { message: 'The request body is not valid JSON.' });
  }
}

/** A request body that is a whole file (a CSV or a spreadsheet), handed to the handler as bytes. */
export interface UploadedFile {
  /** The media type the client sent, without parameters (`text/csv`). */
  contentType: string;
  bytes: Buffer;
}

/**
 * Reads a file body of one of the media types the contract declares for the operation, no larger
 * than `limit` bytes, as bytes (a spreadsheet is no text); other media types are refused with 415.
 */
export async function readFileBody(ctx: Context, limit: number, mediaTypes: string[]): Promise<ParsedBody> {
  const length = declaredLength(ctx);
  const chunked = Boolean(ctx.get('transfer-encoding'));
  if (!chunked && (length === undefined || length === 0)) return { hasBody: false, body: undefined };
  if (length !== undefined && length > limit) {
    throw new HttpError(413, 'payload_too_large', { message: `The file is larger than ${limit} bytes.` });
  }
  if (!ctx.is(mediaTypes)) {
    throw new HttpError(415, 'unsupported_media_type', { message: `Send the file as one of: ${mediaTypes.join(', ')}.` });
  }
  const bytes = await getRawBody(ctx.req, { limit, length });
  if (!bytes.length) return { hasBody: false, body: undefined };
  const file: UploadedFile = { contentType: ctx.request.type, bytes };
  return { hasBody: true, body: file };
}

/** Reads a text body (a CSV file) no larger than `limit` bytes; other media types are refused with 415. */
export async function readTextBody(ctx: Context, limit: number, mediaType: string): Promise<ParsedBody> {
  const length = declaredLength(ctx);
  const chunked = Boolean(ctx.get('transfer-encoding'));
  if (!chunked && (length === undefined || length === 0)) return { hasBody: false, body: undefined };
  if (length !== undefined && length > limit) {
    throw new HttpError(413, 'payload_too_large', { message: `The request body is larger than ${limit} bytes.` });
  }
  if (!ctx.is(mediaType)) {
    throw new HttpError(415, 'unsupported_media_type', { message: `Send the request body as ${mediaType}.` });
  }
  const text = await getRawBody(ctx.req, { limit, length, encoding: 'utf8' });
  if (text.includes('\0')) throw nulRefused('file');
  return text === '' ? { hasBody: false, body: undefined } : { hasBody: true, body: text };
}
