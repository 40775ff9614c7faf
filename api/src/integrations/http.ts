import type { SpecialAddress } from '../kernel/addresses.js';
import { describeSpecial } from '../kernel/addresses.js';
import { type OutboundPolicy, guardedFetch } from '../kernel/outbound.js';
import { type ConnectorEnvironment, ConnectorError } from './connector.js';
import { parseJsonPaced } from '../kernel/pacedJson.js';

/*
 * The HTTP client every vendor connector calls its system's API with. Every call goes through the
 * outbound address guard (kernel/outbound.ts); a 429 waits as long as its Retry-After asks (up to a
 * bound), a 5xx or a dropped connection backs off and retries a bounded number of times, every call
 * has a timeout, and a refusal says what is wrong in words an admin can act on.
 */

export interface RetryPolicy {
  /** Retries after the first attempt, for 429s, 5xxs and dropped connections alike. */
  retries: number;
  /** The first back-off; each retry doubles it. */
  baseDelayMs: number;
  /** The longest wait a Retry-After may ask for; a longer one ends the sync as rate-limited. */
  maxWaitMs: number;
  /** How long one call may take, response body included. */
  timeoutMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 4, baseDelayMs: 1_000, maxWaitMs: 120_000, timeoutMs: 60_000 };

/** The largest response body read (a full directory with years of pay history fits well within it). */
export const MAX_RESPONSE_BYTES = 256 * 1024 * 1024;

export interface CallOptions {
  method?: 'GET' | 'POST';
  /** A list value repeats its key (Personio's attributes[]=a&attributes[]=b). */
  query?: Record<string, string | number | readonly string[] | undefined>;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as application/x-www-form-urlencoded. */
  form?: Record<string, string>;
  headers?: Record<string, string>;
  /** What the call is for, in the error messages ("the employee report"). */
  what?: string;
}

export interface VendorApi {
  /** The vendor's name in messages ("BambooHR"). */
  system: string;
  /** The API's base address; paths are resolved against it. */
  baseUrl: string;
  /** Headers of every call: the credentials. */
  headers: () => Promise<Record<string, string>> | Record<string, string>;
  /** The vendor's own error text from a refused call (a header or the body), when it gives one. */
  errorDetail?: (response: Response, body: string) => string | undefined;
  /** What the credentials need, said with a 403 ("an API key of a user with access to compensation"). */
  permissionHint?: string;
  /** Sees every answered 2xx call first (Personio hands out the token of the next call on each). */
  onSuccess?: (response: Response) => void;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Retry-After in seconds or as an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * X-RateLimit-Reset, for systems that say when their window reopens instead of sending Retry-After:
 * a Unix time in seconds (HiBob), or seconds from now when small.
 */
export function rateLimitResetMs(value: string | null, now = Date.now()): number | undefined {
  if (!value || !/^\d+(\.\d+)?$/.test(value.trim())) return undefined;
  const number = Number(value.trim());
  return number > 1_000_000_000 ? Math.max(0, Math.round(number * 1000 - now)) : Math.round(number * 1000);
}

const RETRIED_STATUSES = new Set([500, 502, 503, 504]);

async function readBody(response: Response, host: string): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  // Decoded as it arrives: a large answer is not turned into text in one go at the end.
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > MAX_RESPONSE_BYTES) {
      await reader.cancel();
      throw new ConnectorError(`${host} sent more than ${MAX_RESPONSE_BYTES} bytes in one response.`, 'response');
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

function policyOf(env: ConnectorEnvironment): OutboundPolicy {
  return {
    allowPrivateNetworks: env.allowPrivateNetworks,
    refuse: (found: SpecialAddress, hostname?: string) =>
      new ConnectorError(
        `${describeSpecial(found, hostname)}; this deployment does not call such addresses (set PAYBENCH_INTEGRATIONS_ALLOW_PRIVATE_NETWORKS=true to allow private and special-purpose ones).`,
        'refused',
      ),
  };
}

const errorText = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as Error & { cause?: unknown }).cause;
  const code = (error as NodeJS.ErrnoException).code ?? (cause instanceof Error ? (cause as NodeJS.ErrnoException).code : undefined);
  return code ? `${error.message} (${code})` : error.message;
};

export class VendorHttp {
  private readonly retry: RetryPolicy;
  private readonly policy: OutboundPolicy;
  /** Calls made and retries waited, for the sync's log. */
  readonly stats = { calls: 0, retries: 0, waitedMs: 0 };

  constructor(
    private readonly api: VendorApi,
    private readonly env: ConnectorEnvironment,
  ) {
    this.retry = { ...DEFAULT_RETRY, ...env.retry };
    this.policy = policyOf(env);
  }

  urlOf(path: string, query: CallOptions['query'] = {}): URL {
    const base = this.api.baseUrl.endsWith('/') ? this.api.baseUrl : `${this.api.baseUrl}/`;
    const url = new URL(path.replace(/^\//, ''), base);
    for (const [key, value] of Object.entries(query)) {
      if (Array.isArray(value)) for (const item of value) url.searchParams.append(key, String(item));
      else if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return url;
  }

  /** A call answered 2xx, as JSON (a large answer parsed a slice at a time: the event loop runs meanwhile). */
  async json<T>(path: string, options: CallOptions = {}): Promise<T> {
    const { body, url } = await this.call(path, { ...options, headers: { Accept: 'application/json', ...options.headers } });
    try {
      return (await parseJsonPaced(body)) as T;
    } catch {
      throw new ConnectorError(`${this.api.system} sent ${options.what ?? url.pathname} as something other than JSON.`, 'response');
    }
  }

  /** A call answered 2xx: its body as text. */
  async call(path: string, options: CallOptions = {}): Promise<{ body: string; url: URL; response: Response }> {
    const url = this.urlOf(path, options.query);
    const what = options.what ?? url.pathname;
    const headers: Record<string, string> = { 'User-Agent': 'Paybench integration', ...(await this.api.headers()), ...options.headers };
    let payload: string | undefined;
    if (options.json !== undefined) {
      payload = JSON.stringify(options.json);
      headers['Content-Type'] = 'application/json';
    } else if (options.form) {
      payload = new URLSearchParams(options.form).toString();
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
    }
    for (let attempt = 0; ; attempt += 1) {
      const last = attempt >= this.retry.retries;
      const backoff = this.retry.baseDelayMs * 2 ** attempt;
      let response: Response;
      let body: string;
      this.stats.calls += 1;
      try {
        const signal = AbortSignal.timeout(this.retry.timeoutMs);
        response = await guardedFetch(url, { method: options.method ?? 'GET', headers, body: payload ?? null, signal }, this.policy);
        body = await readBody(response, url.host);
      } catch (error) {
        if (error instanceof ConnectorError) throw error;
        const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
        const reason = timedOut ? `did not answer within ${this.retry.timeoutMs / 1000} seconds` : `could not be reached: ${errorText(error)}`;
        if (last) throw new ConnectorError(`${this.api.system} (${url.host}) ${reason}${attempt ? ` (tried ${attempt + 1} times)` : ''}.`, 'unreachable');
        await this.wait(backoff);
        continue;
      }
      const status = response.status;
      if (status >= 200 && status < 300) {
        this.api.onSuccess?.(response);
        return { body, url, response };
      }
      // Without its closing full stop: the message goes on after it.
      const detail = this.api.errorDetail?.(response, body)?.trim().replace(/\.+$/, '');
      const said = detail ? `: ${detail}` : '';
      if (status === 429 || RETRIED_STATUSES.has(status)) {
        const asked = retryAfterMs(response.headers.get('retry-after')) ?? (status === 429 ? rateLimitResetMs(response.headers.get('x-ratelimit-reset')) : undefined);
        if (asked !== undefined && asked > this.retry.maxWaitMs) {
          throw new ConnectorError(`${this.api.system} is rate-limiting Paybench (${status}) and asks to wait ${Math.ceil(asked / 1000)} seconds, longer than a sync waits; the next sync tries again.`, 'rateLimited');
        }
        if (last) {
          if (status === 429) throw new ConnectorError(`${this.api.system} kept rate-limiting Paybench (429) after ${attempt + 1} attempts at ${what}; the next sync tries again.`, 'rateLimited');
          throw new ConnectorError(`${this.api.system} answered ${status}${said} for ${what}, ${attempt + 1} times; it may be down.`, 'vendor');
        }
        await this.wait(asked ?? backoff);
        continue;
      }
      if (status === 401) throw new ConnectorError(`${this.api.system} refused the credentials (401)${said}. Check the API key or token and enter it again.`, 'credentials');
      if (status === 403) {
        throw new ConnectorError(`${this.api.system} denied access to ${what} (403)${said}.${this.api.permissionHint ? ` ${this.api.permissionHint}` : ''}`, 'permission');
      }
      if (status === 404) throw new ConnectorError(`${this.api.system} has no ${what} at ${url.host} (404)${said}. Check the company domain or address.`, 'notFound');
      throw new ConnectorError(`${this.api.system} refused ${what} (${status})${said}.`, 'vendor');
    }
  }

  private async wait(ms: number): Promise<void> {
    this.stats.retries += 1;
    this.stats.waitedMs += ms;
    await sleep(ms);
  }
}

/**
 * Every page of a paginated list: `page(cursor)` gives one page and the cursor of the next
 * (undefined at the end). Bounded, so a system that keeps answering "there is more" ends the sync.
 */
export async function allPages<Item, Cursor>(page: (cursor: Cursor | undefined) => Promise<{ items: Item[]; next: Cursor | undefined }>, options: { maxPages?: number; onItems?: (count: number) => Promise<void> } = {}): Promise<Item[]> {
  const maxPages = options.maxPages ?? 100_000;
  const items: Item[] = [];
  let cursor: Cursor | undefined;
  for (let pages = 0; ; pages += 1) {
    if (pages >= maxPages) throw new ConnectorError(`The list did not end after ${maxPages} pages.`, 'response');
    const { items: got, next } = await page(cursor);
    items.push(...got);
    await options.onItems?.(items.length);
    if (next === undefined || got.length === 0) return items;
    cursor = next;
  }
}

/** Pages by offset and limit: the next page starts where this one ended, until a short page. */
export function offsetPages<Item>(limit: number, page: (offset: number, limit: number) => Promise<Item[]>, options: { maxPages?: number; onItems?: (count: number) => Promise<void> } = {}): Promise<Item[]> {
  return allPages<Item, number>(async (offset = 0) => {
    const items = await page(offset, limit);
    return { items, next: items.length < limit ? undefined : offset + items.length };
  }, options);
}

/** Basic authentication's header value. */
export const basicAuth = (user: string, password: string): string => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
