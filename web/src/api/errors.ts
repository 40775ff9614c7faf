import type { components } from '../../../openapi.d.ts';

/** The contract's one error shape, as the server sends it. */
type ContractError = components['schemas']['Error'];

/** What a status says to a person: the error catalogue of the spec (§8), word for word. */
export interface CatalogueText {
  title: string;
  description: string;
}

const UNEXPECTED: CatalogueText = { title: 'Something went wrong', description: 'An unexpected error occurred. Please wait and try again.' };
const NO_ACCESS: CatalogueText = { title: 'Permission denied', description: 'You do not have access to this content. Please contact your company admin for support.' };

/** Every status the catalogue names. */
export const ERROR_CATALOGUE: Readonly<Record<number, CatalogueText>> = {
  400: UNEXPECTED,
  401: NO_ACCESS,
  403: NO_ACCESS,
  404: { title: 'Not found', description: 'The content could not be found.' },
  409: UNEXPECTED,
  413: UNEXPECTED,
  428: UNEXPECTED,
  429: { title: 'Rate limit exceeded', description: 'Too many requests have been made. Please wait 60 seconds and try again.' },
  500: UNEXPECTED,
  502: UNEXPECTED,
  503: { title: 'Service unavailable', description: 'Paybench is temporarily unavailable. Please wait and try again.' },
};

/** Any other status, and failures without one. */
export const OTHER_ERROR: CatalogueText = {
  title: 'Something went wrong',
  description: 'Please refresh the page and try again. If the problem persists, contact your company admin for support.',
};

/** The catalogue's words for a status (the "other" row for one it does not name, or none). */
export function catalogueText(status: number | undefined): CatalogueText {
  return (status !== undefined ? ERROR_CATALOGUE[status] : undefined) ?? OTHER_ERROR;
}

/** The code a request carries when this client cancelled it. */
export const CANCELED = 'canceled';

/** The HTTP client's own messages (§8), for failures the server did not word. */
export const clientMessages = {
  network: 'Network Error',
  aborted: 'Request aborted',
  timeout: (ms: number) => `timeout of ${ms} ms exceeded`,
  status: (status: number) => `Request failed with status code ${status}`,
} as const;

/**
 * A failed call in the spec's normal form: `message` (the server's, else the HTTP client's),
 * `code` (the server's code, else the status, or `canceled`), `status` and `url`, with the
 * catalogue's title and description for the status.
 */
export interface NormalisedError {
  message: string;
  code: string;
  status: number | undefined;
  url: string;
  title: string;
  description: string;
}

/** A call that failed before any answer: no network, cancelled, or timed out. */
export class HttpError extends Error implements NormalisedError {
  override readonly name = 'HttpError';
  readonly code: string;
  readonly status: number | undefined;
  readonly url: string;
  readonly title: string;
  readonly description: string;

  constructor(fields: NormalisedError) {
    super(fields.message);
    this.code = fields.code;
    this.status = fields.status;
    this.url = fields.url;
    this.title = fields.title;
    this.description = fields.description;
  }
}

/** Why a request with a time limit (`timeoutSignal`) was aborted. */
export class RequestTimeout extends Error {
  override readonly name = 'RequestTimeout';
  constructor(readonly ms: number) {
    super(clientMessages.timeout(ms));
  }
}

/**
 * A signal that aborts a request after `ms` milliseconds, reported as the HTTP client's
 * "timeout of N ms exceeded" (requests have no time limit unless given one).
 */
export function timeoutSignal(ms: number): AbortSignal {
  const controller = new AbortController();
  setTimeout(() => controller.abort(new RequestTimeout(ms)), ms);
  return controller.signal;
}

function isAbort(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
}

/** A call that threw instead of answering (fetch's failure), in normal form. */
export function transportError(error: unknown, url: string): HttpError {
  const other = { status: undefined, url, ...OTHER_ERROR };
  if (error instanceof HttpError) return error;
  if (error instanceof RequestTimeout) return new HttpError({ ...other, message: error.message, code: 'ECONNABORTED' });
  if (isAbort(error)) return new HttpError({ ...other, message: clientMessages.aborted, code: CANCELED });
  return new HttpError({ ...other, message: clientMessages.network, code: 'ERR_NETWORK' });
}

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * The error body a screen receives for a failed answer: the server's contract error with its
 * `url`, or — when something else answered (a proxy's HTML page, an empty body) — one in the
 * contract's shape with the catalogue's words for the status. `message` stays the server's own, so
 * a screen shows the server's specific reason, else the catalogue's description.
 */
export function errorBody(status: number, url: string, body: unknown): ContractError & { url: string } {
  const catalogue = catalogueText(status);
  const server = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Partial<ContractError>) : {};
  return {
    ...server,
    code: text(server.code) ?? String(status),
    title: text(server.title) ?? catalogue.title,
    description: text(server.description) ?? catalogue.description,
    status: typeof server.status === 'number' ? server.status : status,
    url,
  };
}

/**
 * Any failure — a contract error body, an `HttpError`, an `Error` thrown elsewhere — in the spec's
 * normal form. `url` and `status` fill what the failure itself does not say.
 */
export function normaliseError(error: unknown, context: { url?: string; status?: number } = {}): NormalisedError {
  if (error instanceof HttpError) return { message: error.message, code: error.code, status: error.status, url: error.url, title: error.title, description: error.description };
  if (isAbort(error) || error instanceof RequestTimeout) return normaliseError(transportError(error, context.url ?? ''));
  const rawStatus = field(error, 'status');
  const status = typeof rawStatus === 'number' ? rawStatus : context.status;
  const catalogue = catalogueText(status);
  const rawCode = field(error, 'code');
  return {
    message: text(field(error, 'message')) ?? (typeof error === 'string' && error ? error : status !== undefined ? clientMessages.status(status) : clientMessages.network),
    code: text(rawCode) ?? (status !== undefined ? String(status) : 'ERR_NETWORK'),
    status,
    url: text(field(error, 'url')) ?? context.url ?? '',
    title: text(field(error, 'title')) ?? catalogue.title,
    description: text(field(error, 'description')) ?? catalogue.description,
  };
}
