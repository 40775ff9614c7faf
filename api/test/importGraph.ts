import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/*
 * Reading an import graph for the floor-plan tests (api/test/importGraph.unit.test.ts,
 * web/test/importCycles.unit.test.ts): runtime imports only — type-only imports are erased and
 * tie nothing — and the strongly connected parts of the graph they make.
 */

/** Every source file under `dir` with one of `extensions` (tests, declarations and `skip`ped folders left out). */
export function* sourceFiles(dir: string, { extensions, skip = [] }: { extensions: readonly string[]; skip?: readonly string[] }): Generator<string> {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      if (!skip.includes(name)) yield* sourceFiles(full, { extensions, skip });
    } else if (extensions.some((extension) => name.endsWith(extension)) && !name.endsWith('.d.ts') && !/\.test\.tsx?$/.test(name)) yield full;
  }
}

function isTypeOnly(clause: ts.ImportClause | undefined): boolean {
  if (!clause) return false; // `import './x.js'` runs the module
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return !clause.name && named !== undefined && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((element) => element.isTypeOnly);
}

/** The relative specifiers a file imports at run time: static imports, re-exports and lazy `import()`. */
export function runtimeSpecifiers(file: string): string[] {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, kind);
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

/** Tarjan's strongly connected components: each one's members, in the order they close. */
export function stronglyConnected(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
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
    found.push(members);
  };
  const nodes = new Set([...graph.keys(), ...[...graph.values()].flatMap((targets) => [...targets])]);
  for (const node of nodes) if (!order.has(node)) visit(node);
  return found;
}
