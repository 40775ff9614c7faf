import { inject } from 'vitest';
import type { components } from '../src/contract-types.js';

export type ErrorBody = components['schemas']['Error'];

export interface Reply<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

export const baseUrl = (): string => inject('baseUrl');

/** A real HTTP request to the test server; JSON in, parsed JSON (or text) out. */
export async function request<T = unknown>(
  path: string,
  init: RequestInit & { json?: unknown; base?: string } = {},
): Promise<Reply<T>> {
  const { json, base, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (json !== undefined) headers.set('content-type', 'application/json');
  const response = await fetch(`${base ?? baseUrl()}${path}`, {
    ...rest,
    headers,
    body: json !== undefined ? JSON.stringify(json) : rest.body,
  });
  const text = await response.text();
  const isJson = response.headers.get('content-type')?.includes('json');
  return { status: response.status, headers: response.headers, body: (isJson && text ? JSON.parse(text) : text) as T };
}
