import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { Readable } from 'node:stream';
import { type SpecialAddress, describeSpecial, specialPurpose } from './addresses.js';

/**
 * The outbound address guard: every call Paybench makes to an address someone typed in (a file's
 * URL, a chat webhook, a sign-in provider) goes through it. Every address a name resolves to is
 * checked, the socket connects only to an address that was checked (no second lookup a rebinding
 * DNS server could answer differently), and every redirect is checked the same way.
 */

/** Whether loopback, private and other special-purpose addresses may be called (a deployment's setting). */
export interface OutboundPolicy {
  allowPrivateNetworks: boolean;
  /** The error for a refused address; `hostname` when the address came from resolving it. */
  refuse?: (found: SpecialAddress, hostname?: string) => Error;
}

/** An address the guard refused: the special-purpose range, in words. */
export class AddressRefused extends Error {
  override readonly name = 'AddressRefused';
  constructor(
    readonly found: SpecialAddress,
    readonly hostname?: string,
  ) {
    super(describeSpecial(found, hostname));
  }
}

const refusal = (policy: OutboundPolicy, found: SpecialAddress, hostname?: string): Error => (policy.refuse ?? ((f, h) => new AddressRefused(f, h)))(found, hostname);

/** The host of a URL without the brackets of an IPv6 literal. */
const hostOf = (url: URL): string => url.hostname.replace(/^\[|\]$/g, '');

/** An address written in the URL itself is connected to without a lookup: it is judged here. */
export function literalRefusal(url: URL, policy: OutboundPolicy): Error | undefined {
  const host = hostOf(url);
  const found = isIP(host) && !policy.allowPrivateNetworks ? specialPurpose(host) : undefined;
  return found && refusal(policy, found);
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * Resolves as usual, refuses the host if any of its addresses is special-purpose, and hands the
 * connection exactly the addresses it checked.
 */
export function guardedLookup(policy: OutboundPolicy) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses as LookupAddress[];
      const blocked = policy.allowPrivateNetworks ? undefined : list.map((entry) => specialPurpose(entry.address)).find(Boolean);
      if (blocked) return callback(refusal(policy, blocked, hostname) as NodeJS.ErrnoException, []);
      if (options.all) return callback(null, list);
      const first = list[0];
      if (!first) return callback(new Error(`${hostname} has no address`) as NodeJS.ErrnoException, []);
      callback(null, first.address, first.family);
    });
  };
}

/**
 * For saving an address: undefined when it may be called now, else why not (refused, or the name
 * does not resolve). The call itself is guarded again, since a name may resolve elsewhere later.
 */
export async function checkOutboundAddress(url: URL, policy: OutboundPolicy): Promise<Error | undefined> {
  const literal = literalRefusal(url, policy);
  if (literal || isIP(hostOf(url)) || policy.allowPrivateNetworks) return literal;
  return new Promise((resolve) => {
    guardedLookup(policy)(hostOf(url), { all: true }, (error) => resolve(error ?? undefined));
  });
}

export interface GuardedRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array | ArrayBuffer | URLSearchParams | null;
  signal?: AbortSignal;
  /** `follow` (the default) follows up to five redirects, each checked; `manual` answers the redirect. */
  redirect?: 'follow' | 'manual';
}

const MAX_REDIRECTS = 5;
/** Statuses whose response has no body (a Response refuses one). */
const NULL_BODY = new Set([101, 204, 205, 304]);

function bodyOf(body: GuardedRequest['body']): string | Uint8Array | undefined {
  if (body === null || body === undefined) return undefined;
  if (body instanceof URLSearchParams) return body.toString();
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  return body;
}

function send(url: URL, init: GuardedRequest, policy: OutboundPolicy): Promise<http.IncomingMessage> {
  const refused = literalRefusal(url, policy);
  if (refused) return Promise.reject(refused);
  const client = url.protocol === 'https:' ? https : url.protocol === 'http:' ? http : undefined;
  if (!client) return Promise.reject(new Error(`${url.protocol} addresses are not called`));
  return new Promise((resolve, reject) => {
    const request = client.request(url, { method: init.method ?? 'GET', headers: init.headers, lookup: guardedLookup(policy), signal: init.signal }, resolve);
    request.on('error', reject);
    request.end(bodyOf(init.body));
  });
}

function toResponse(message: http.IncomingMessage): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(message.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
  }
  const status = message.statusCode ?? 502;
  if (NULL_BODY.has(status)) message.resume();
  const body = NULL_BODY.has(status) ? null : (Readable.toWeb(message) as ReadableStream<Uint8Array>);
  return new Response(body, { status, statusText: message.statusMessage ?? '', headers });
}

/** Headers that belong to the address first called, not to wherever it redirects. */
const CREDENTIALS = ['authorization', 'cookie', 'proxy-authorization'];

/** `fetch`, through the guard: a refused address rejects with the policy's error, before any connection to it. */
export async function guardedFetch(input: string | URL, init: GuardedRequest, policy: OutboundPolicy): Promise<Response> {
  let url = new URL(input);
  let current: GuardedRequest = init;
  for (let redirects = 0; ; redirects++) {
    const message = await send(url, current, policy);
    const status = message.statusCode ?? 0;
    const location = message.headers.location;
    if (init.redirect === 'manual' || status < 300 || status >= 400 || !location) return toResponse(message);
    message.resume();
    if (redirects >= MAX_REDIRECTS) throw new Error(`${url.host} redirected too many times`);
    const next = new URL(location, url);
    const headers = Object.fromEntries(Object.entries(current.headers ?? {}).filter(([name]) => next.origin === url.origin || !CREDENTIALS.includes(name.toLowerCase())));
    // As fetch does: a 303, and a 301 or 302 of a POST, continue as a GET without the body.
    const asGet = status === 303 || ((status === 301 || status === 302) && (current.method ?? 'GET').toUpperCase() === 'POST');
    current = asGet ? { ...current, method: 'GET', body: undefined, headers: Object.fromEntries(Object.entries(headers).filter(([name]) => !name.toLowerCase().startsWith('content-'))) } : { ...current, headers };
    url = next;
  }
}
