import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/*
 * No file of `web/src` reaches itself through its runtime imports (static and lazy `import()`;
 * type-only imports are erased and tie nothing). A circle makes load order matter: a module can
 * see another half-initialised, and a lazy screen drags its loader back into the chunk it was
 * split from. The circles known today are listed, so the list can only shrink: a listed circle
 * that is gone must leave the list too.
 */

const SRC = path.resolve(import.meta.dirname, '..', 'src');

/** Each known circle: its files (relative to `web/src`), sorted. */
const KNOWN_CIRCLES: readonly (readonly string[])[] = [
  ['features/planning/Close.tsx', 'features/planning/Cycle.tsx', 'features/planning/Eligibility.tsx', 'features/planning/Setup.tsx'],
];

const EXTENSIONS = ['.ts', '.tsx'];

function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* sourceFiles(full);
    else if (EXTENSIONS.some((extension) => name.endsWith(extension)) && !name.endsWith('.d.ts')) yield full;
  }
}

function isTypeOnly(clause: ts.ImportClause | undefined): boolean {
  if (!clause) return false; // `import './x'` runs the module
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return !clause.name && named !== undefined && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((element) => element.isTypeOnly);
}

function runtimeSpecifiers(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && !isTypeOnly(node.importClause)) found.push(node.moduleSpecifier.text);
    else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier) && !node.isTypeOnly) found.push(node.moduleSpecifier.text);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [first] = node.arguments;
      if (first && ts.isStringLiteral(first)) found.push(first.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.filter((specifier) => specifier.startsWith('.'));
}

/** The source file an import names (`./x` → `x.ts`, `x.tsx` or `x/index.ts`); none for CSS and the like. */
function resolve(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier.replace(/\.js$/, ''));
  const candidates = [base, ...EXTENSIONS.map((extension) => base + extension), ...EXTENSIONS.map((extension) => path.join(base, `index${extension}`))];
  return candidates.find((candidate) => EXTENSIONS.some((extension) => candidate.endsWith(extension)) && existsSync(candidate) && statSync(candidate).isFile());
}

function fileGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(SRC)) {
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

/** Tarjan's strongly connected components with more than one file, or a file importing itself. */
function circles(graph: Map<string, Set<string>>): string[][] {
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  const visit = (node: string): void => {
    order.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!order.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node) ?? 0, order.get(next) ?? 0));
    }
    if (low.get(node) !== order.get(node)) return;
    const members: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member);
      members.push(member);
      if (member === node) break;
    }
    if (members.length > 1 || graph.get(node)?.has(node)) found.push(members.sort());
  };
  for (const node of graph.keys()) if (!order.has(node)) visit(node);
  return found;
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
