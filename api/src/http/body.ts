import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { HttpError } from './errors.js';

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
  try {
    return { hasBody: true, body: JSON.parse(text) as unknown };
  } catch {
    throw new HttpError(400, 'malformed_json', { message: 'The request body is not valid JSON.' });
  }
}
