import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './importGraph.js';

/*
 * One way to write a version: `kernel/versions.ts` (`writeAtVersion` / `updateAtVersion` for a change
 * at the version the caller read, `moveVersionOn` for a change made without one). Nothing else in
 * `api/src` sets a `version` column by hand: no `.update({ …, version: … })`, no
 * `.increment('version')`, no `version = version + 1` in SQL. A first insert (`version: 1`) is not a
 * change and is left alone. The files still listed write one by hand today; the list only shrinks.
 */

const SRC = path.resolve(import.meta.dirname, '..', 'src');
const HELPER = 'kernel/versions.ts';
/** Hand-written today, in the file imports (bands/bandImport.ts, imports/roles.ts), moved with them. */
const STILL_HAND_WRITTEN = ['bands/bandImport.ts', 'imports/roles.ts'];

const VERSION_KEY = /^version$/;
const VERSION_IN_SQL = /\bversion\s*=\s*"?version"?\s*\+|\bset\s+"?version"?\s*=/i;

const keyOf = (property: ts.ObjectLiteralElementLike): string | undefined => {
  if (ts.isShorthandPropertyAssignment(property)) return property.name.text;
  const name = property.name;
  return name && (ts.isIdentifier(name) || ts.isStringLiteral(name)) ? name.text : undefined;
};

/** `file:line what` for each hand-written write of a version in `file`. */
function versionWrites(file: string): string[] {
  const relative = path.relative(SRC, file).split(path.sep).join('/');
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (node: ts.Node, what: string) => found.push(`${relative}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1} ${what}`);
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text;
      const [first] = node.arguments;
      if (method === 'update' && first && ts.isObjectLiteralExpression(first) && first.properties.some((property) => VERSION_KEY.test(keyOf(property) ?? ''))) at(node, '.update({ version })');
      if ((method === 'increment' || method === 'decrement') && first && ts.isStringLiteralLike(first) && VERSION_KEY.test(first.text)) at(node, `.${method}('version')`);
    }
    if ((ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) && VERSION_IN_SQL.test(node.text)) at(node, 'version in SQL');
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('versioned writes in api/src', () => {
  const writes = [...sourceFiles(SRC, { extensions: ['.ts'] })].flatMap(versionWrites);
  const fileOf = (write: string) => write.split(':')[0] ?? '';

  it('sees the helper’s own write (the scan reads real code)', () => {
    expect(writes.filter((write) => fileOf(write) === HELPER).length).toBeGreaterThanOrEqual(2);
  });

  it('writes a version only through kernel/versions.ts, but for the listed files, which only shrink', () => {
    const outside = writes.filter((write) => fileOf(write) !== HELPER);
    const files = [...new Set(outside.map(fileOf))];
    expect({ new: outside.filter((write) => !STILL_HAND_WRITTEN.includes(fileOf(write))), gone: STILL_HAND_WRITTEN.filter((file) => !files.includes(file)) }).toEqual({ new: [], gone: [] });
  });
});
