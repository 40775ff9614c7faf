import type { components } from '../contract-types.js';

export type ErrorBody = components['schemas']['Error'];
export type FieldError = components['schemas']['FieldError'];

interface CatalogueEntry {
  title: string;
  description: string;
}

const UNEXPECTED: CatalogueEntry = {
  title: 'Something went wrong',
  description: 'An unexpected error occurred. Please wait and try again.',
};
const NO_ACCESS: CatalogueEntry = {
  title: 'Permission denied',
  description: 'You do not have access to this content. Please contact your company admin for support.',
};

/** The error catalogue of the product specification (§8), by HTTP status. */
const CATALOGUE: Record<number, CatalogueEntry> = {
  400: UNEXPECTED,
  409: UNEXPECTED,
  413: UNEXPECTED,
  428: UNEXPECTED,
  500: UNEXPECTED,
  502: UNEXPECTED,
  401: NO_ACCESS,
  403: NO_ACCESS,
  404: { title: 'Not found', description: 'The content could not be found.' },
  429: {
    title: 'Rate limit exceeded',
    description: 'Too many requests have been made. Please wait 60 seconds and try again.',
  },
  503: { title: 'Service unavailable', description: 'Paybench is temporarily unavailable. Please wait and try again.' },
};

const OTHER: CatalogueEntry = {
  title: 'Something went wrong',
  description: 'Please refresh the page and try again. If the problem persists, contact your company admin for support.',
};

export function catalogueEntry(status: number): CatalogueEntry {
  return CATALOGUE[status] ?? OTHER;
}

export interface HttpErrorOptions {
  message?: string;
  errors?: FieldError[];
  /** On 401: why the credentials were refused. */
  clientMessage?: string;
  headers?: Record<string, string>;
}

/** An expected failure: carries the status, a stable code and what to tell the caller. */
export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly errors: FieldError[] | undefined;
  readonly clientMessage: string | undefined;
  readonly headers: Record<string, string>;

  constructor(status: number, code: string, options: HttpErrorOptions = {}) {
    super(options.message ?? catalogueEntry(status).description);
    this.status = status;
    this.code = code;
    this.errors = options.errors;
    this.clientMessage = options.clientMessage;
    this.headers = options.headers ?? {};
  }
}

export const notFound = (message = 'The content could not be found.'): HttpError =>
  new HttpError(404, 'not_found', { message });

/** The one presented record of a lookup; nothing means the id is not the caller's: 404. */
export function found<T>(value: T | undefined): T {
  if (value === undefined) throw notFound();
  return value;
}

/** Text with a NUL character (U+0000): Postgres cannot store it, so it is refused wherever it arrives. */
export const nulRefused = (where: string): HttpError =>
  new HttpError(400, 'nul_character', { message: `The ${where} contains a NUL character (U+0000), which Paybench does not accept.` });

export const badRequest = (message: string, errors?: FieldError[]): HttpError =>
  new HttpError(400, 'validation_failed', { message, errors });

export function errorBody(error: HttpError, requestId?: string): ErrorBody {
  const entry = catalogueEntry(error.status);
  const body: ErrorBody = {
    code: error.code,
    title: entry.title,
    description: entry.description,
    status: error.status,
    message: error.message,
  };
  if (error.errors?.length) body.errors = error.errors;
  if (error.clientMessage) body.clientResponse = { message: error.clientMessage };
  if (requestId) body.requestId = requestId;
  return body;
}

/** A database error's code: Postgres's SQLSTATE (`23505`) or SQLite's extended code (`SQLITE_CONSTRAINT_UNIQUE`). */
function databaseCode(thrown: unknown): string | undefined {
  if (typeof thrown !== 'object' || thrown === null) return undefined;
  const { code, message } = thrown as { code?: unknown; message?: unknown };
  if (code === 'SQLITE_CONSTRAINT' && typeof message === 'string') {
    // node-sqlite3 reports the family only; the message names the kind.
    if (message.includes('UNIQUE constraint failed')) return 'SQLITE_CONSTRAINT_UNIQUE';
    if (message.includes('PRIMARY KEY')) return 'SQLITE_CONSTRAINT_PRIMARYKEY';
  }
  return typeof code === 'string' ? code : undefined;
}

/** Unique violations on either engine: two writers raced for one natural key. */
const UNIQUE_VIOLATIONS = new Set(['23505', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY']);
/** A unique violation on either engine, for a service that answers a lost race itself. */
export const isUniqueViolation = (thrown: unknown): boolean => UNIQUE_VIOLATIONS.has(databaseCode(thrown) ?? '');
/** Text Postgres cannot store (a NUL character slipped past the request checks, e.g. inside a spreadsheet). */
const UNSTORABLE_TEXT = new Set(['22021', '22P05']);

/** Turns anything thrown into an HttpError; unknown errors become a 500 that hides internals. */
export function toHttpError(thrown: unknown): HttpError {
  if (thrown instanceof HttpError) return thrown;
  const code = databaseCode(thrown);
  if (code && UNIQUE_VIOLATIONS.has(code)) {
    return new HttpError(409, 'conflict', { message: 'This record already exists (perhaps saved a moment ago by someone else); reload and try again.' });
  }
  if (code && UNSTORABLE_TEXT.has(code)) return nulRefused('request');
  // SQLite's one write lock stayed taken past the busy timeout (a very large import writing): try again shortly.
  if (code === 'SQLITE_BUSY') {
    return new HttpError(503, 'busy', { message: 'The database is busy with a large write; try again in a few seconds.', headers: { 'Retry-After': '5' } });
  }
  const status = statusOf(thrown);
  if (status === 413) return new HttpError(413, 'payload_too_large', { message: 'The request body is too large.' });
  if (status === 415)
    return new HttpError(415, 'unsupported_media_type', { message: 'Send the request body as application/json.' });
  if (status === 400) return new HttpError(400, 'malformed_request', { message: 'The request body is not valid JSON.' });
  return new HttpError(500, 'internal_error');
}

function statusOf(thrown: unknown): number | undefined {
  if (typeof thrown !== 'object' || thrown === null) return undefined;
  const candidate = (thrown as { status?: unknown; statusCode?: unknown }).status ??
    (thrown as { statusCode?: unknown }).statusCode;
  return typeof candidate === 'number' ? candidate : undefined;
}
