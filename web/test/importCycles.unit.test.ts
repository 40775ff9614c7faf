import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runtimeSpecifiers, sourceFiles, stronglyConnected } from '../../api/test/importGraph.js';

/*
 * No file of `web/src` reaches itself through its runtime imports (static and lazy `import()`;
 * type-only imports are erased and tie nothing). A circle makes load order matter: a module can
 * see another half-initialised, and a lazy screen drags its loader back into the chunk it was
 * split from. None is known today; a circle listed here must leave the list once it is gone.
 */

const SRC = path.resolve(import.meta.dirname, '..', 'src');

/** Each known circle: its files (relative to `web/src`), sorted. */
const KNOWN_CIRCLES: readonly (readonly string[])[] = [];

const EXTENSIONS = ['.ts', '.tsx'];

/** The source file an import names (`./x` → `x.ts`, `x.tsx` or `x/index.ts`); none for CSS and the like. */
function resolve(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier.replace(/\.js$/, ''));
  const candidates = [base, ...EXTENSIONS.map((extension) => base + extension), ...EXTENSIONS.map((extension) => path.join(base, `index${extension}`))];
  return candidates.find((candidate) => EXTENSIONS.some((extension) => candidate.endsWith(extension)) && existsSync(candidate) && statSync(candidate).isFile());
}

function fileGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(SRC, { extensions: EXTENSIONS })) {
    const from = path.relative(SRC, file);
    const targets = new Set<string>();
    for (const specifier of runtimeSpecifiers(file)) {
      const target = resolve(file, specifier);
      if (target?.startsWith(SRC + path.sep)) targets.add(path.relative(SRC, target));
    }
    graph.set(from, targets);
  }
  return graph;
}

/** The circles: strongly connected parts of more than one file, or a file importing itself. */
function circles(graph: Map<string, Set<string>>): string[][] {
  return stronglyConnected(graph)
    .filter((members) => members.length > 1 || (members[0] !== undefined && graph.get(members[0])?.has(members[0])))
    .map((members) => members.sort());
}

const key = (files: readonly string[]) => files.join(' ↔ ');

describe('the import graph of web/src', () => {
  const graph = fileGraph();

  it('sees the files and their arrows (the check reads real imports, lazy ones too)', () => {
    expect(graph.get('app/Guard.tsx')?.has('app/person.ts')).toBe(true);
    expect(graph.get('app/Guard.tsx')?.has('features/settings/ModuleAccess.tsx')).toBe(true);
    expect(graph.size).toBeGreaterThan(200);
  });

  it('has no import circle but the known ones, and a known one that is gone leaves the list', () => {
    const found = circles(graph).map(key).sort();
    const known = KNOWN_CIRCLES.map(key).sort();
    expect(found.filter((circle) => !known.includes(circle)), 'new import circles').toEqual([]);
    expect(known.filter((circle) => !found.includes(circle)), 'listed circles that are gone').toEqual([]);
  });

  it('finds a circle when there is one (the check would catch Guard ↔ ModuleAccess)', () => {
    const looped = new Map(graph);
    looped.set('features/settings/ModuleAccess.tsx', new Set([...(graph.get('features/settings/ModuleAccess.tsx') ?? []), 'app/Guard.tsx']));
    expect(circles(looped).map(key)).toContainEqual(expect.stringContaining('app/Guard.tsx'));
  });
});
