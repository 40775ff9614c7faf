import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

/**
 * Which contract operations neither client (the PWA in web/src, the CLI in cli/src) calls, found by
 * scanning their code for the operation's path as a string with a call of its method in the same
 * file. `docs/operations-without-a-client.md` lists such operations with the reason each has no
 * client (scripts, integrations, server-to-server). Every operation has a client or a row there:
 * an operation added without either fails, and so does a row whose operation gained a client (or
 * left the contract) or gives no reason.
 */
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const CALLS: Record<(typeof METHODS)[number], RegExp> = {
  get: /\b(GET|useQuery|useInfiniteQuery)\b/,
  post: /\b(POST|usePostQuery)\b/,
  put: /\bPUT\b/,
  patch: /\bPATCH\b/,
  delete: /\bDELETE\b/,
};

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sources(file);
    return /\.(ts|tsx)$/.test(name) && !/\.test\./.test(name) ? [readFileSync(file, 'utf8')] : [];
  });
}

function operationsWithoutClient(): { id: string; line: string }[] {
  const contract = parse(readFileSync(path.join(ROOT, 'openapi.yaml'), 'utf8')) as { paths: Record<string, Partial<Record<string, { operationId: string }>>> };
  const texts = [...sources(path.join(ROOT, 'web', 'src')), ...sources(path.join(ROOT, 'cli', 'src'))];
  const unused: { id: string; line: string }[] = [];
  for (const [route, item] of Object.entries(contract.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const quoted = [`'${route}'`, `"${route}"`, `\`${route}\``];
      const called = texts.some((text) => quoted.some((q) => text.includes(q)) && CALLS[method].test(text));
      if (!called) unused.push({ id: operation.operationId, line: `${method.toUpperCase()} ${route}` });
    }
  }
  return unused;
}

/** The rows of the doc's first table, before its first `##` section: `| operationId | METHOD path | reason |`. */
function documented(): Map<string, string> {
  const doc = readFileSync(path.join(ROOT, 'docs', 'operations-without-a-client.md'), 'utf8').split(/^## /m)[0] ?? '';
  const rows = new Map<string, string>();
  for (const match of doc.matchAll(/^\|\s*`([A-Za-z0-9]+)`\s*\|[^|]*\|\s*(.*?)\s*\|\s*$/gm)) rows.set(match[1] ?? '', match[2] ?? '');
  return rows;
}

describe('operations no client calls', () => {
  const unused = operationsWithoutClient();
  const listed = documented();

  it('are each listed with a reason, and a listed operation still exists and still has no client', () => {
    // The scan and the doc were both read: the contract has operations without a client, the doc rows.
    expect(unused.length).toBeGreaterThan(0);
    expect(listed.has('getReadiness')).toBe(true);
    const unusedIds = new Set(unused.map((op) => op.id));
    const stale = [...listed.keys()].filter((id) => !unusedIds.has(id));
    expect(stale, 'these now have a client (or left the contract): take them off docs/operations-without-a-client.md').toEqual([]);
    const withoutReason = [...listed].filter(([, reason]) => reason.trim().length < 10).map(([id]) => id);
    expect(withoutReason, 'these are listed without a reason').toEqual([]);
  });

  it('leave none without a client and without a reason: give it a screen or a command, or a row with who calls it', () => {
    const undocumented = unused.filter((op) => !listed.has(op.id)).map((op) => `${op.id} ${op.line}`);
    expect(undocumented, 'these have no client and no row in docs/operations-without-a-client.md').toEqual([]);
  });
});
