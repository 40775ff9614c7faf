import { Resolver } from 'node:dns/promises';

/**
 * Reads a name's TXT records: each record as the strings it was published in (as node:dns answers).
 * A name without TXT records answers an empty list; a lookup that fails otherwise throws.
 */
export interface TxtResolver {
  resolveTxt(hostname: string): Promise<string[][]>;
}

/** Codes node:dns uses for "the name has no such records", which is an answer, not a failure. */
const NO_RECORDS = new Set(['ENODATA', 'ENOTFOUND', 'NOTFOUND', 'NODATA']);

/** The system's DNS, with a bounded wait: a slow resolver must not hold a request for minutes. */
export function systemTxtResolver(): TxtResolver {
  const resolver = new Resolver({ timeout: 4000, tries: 2 });
  return {
    async resolveTxt(hostname) {
      try {
        return await resolver.resolveTxt(hostname);
      } catch (error) {
        if (NO_RECORDS.has(String((error as { code?: unknown }).code))) return [];
        throw error;
      }
    },
  };
}

/** The TXT record a company publishes at its domain to prove it controls it. */
export const verificationRecord = (token: string): string => `paybench-verification=${token}`;

/** Whether the records hold the company's (records published in several strings are joined first). */
export const holdsRecord = (records: string[][], token: string): boolean => records.some((parts) => parts.join('').trim() === verificationRecord(token));
