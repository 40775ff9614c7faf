import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './importGraph.js';

/*
 * One calling convention at the route boundary (kernel/operations.ts, ServiceContext): a handler
 * takes its context whole and hands it to the service, which takes the parts it uses from it
 * (`Pick<ServiceContext, 'db' | 'caller'>`). So no handler destructures its context, and none
 * passes the database on its own (`ctx.db`, `ctx.deps.db`): the database a service acts in is the
 * one its context carries (the request's tenant transaction on Postgres).
 */

const SRC = path.resolve(import.meta.dirname, '..', 'src');
const MODULES = path.resolve(import.meta.dirname, 'modules');

interface Handler {
  where: string;
  fn: ts.ArrowFunction | ts.FunctionExpression | ts.MethodDeclaration;
  source: ts.SourceFile;
}

const isOperation = (literal: ts.Node): boolean =>
  ts.isObjectLiteralExpression(literal) && ts.isCallExpression(literal.parent) && ts.isIdentifier(literal.parent.expression) && ['secured', 'operation'].includes(literal.parent.expression.text);
const isHandlerName = (name: ts.PropertyName): boolean => ts.isIdentifier(name) && (name.text === 'handler' || name.text === 'kept');

function handlers(): Handler[] {
  const found: Handler[] = [];
  for (const file of [...sourceFiles(SRC, { extensions: ['.ts'], skip: ['test'] }), ...sourceFiles(MODULES, { extensions: ['.ts'], skip: ['test'] })]) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      const fn =
        ts.isPropertyAssignment(node) && isHandlerName(node.name) && (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer))
          ? node.initializer
          : ts.isMethodDeclaration(node) && isHandlerName(node.name)
            ? node
            : undefined;
      if (fn?.body && isOperation(node.parent)) {
        const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
        found.push({ where: `${path.relative(path.dirname(SRC), file).split(path.sep).join('/')}:${line}`, fn, source });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/** Arguments of calls in the handler that are its context's database. */
function databasesPassed(handler: Handler, context: string): string[] {
  const passed: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      for (const argument of node.arguments) {
        const text = argument.getText(handler.source);
        if (text === `${context}.db` || text === `${context}.deps.db`) passed.push(`${handler.where} ${node.expression.getText(handler.source)}(${text}, …)`);
      }
    }
    ts.forEachChild(node, visit);
  };
  if (handler.fn.body) visit(handler.fn.body);
  return passed;
}

describe('the calling convention of services', () => {
  const all = handlers();

  it('finds the handlers of every area (the check reads real declarations)', () => {
    expect(all.length).toBeGreaterThan(400);
  });

  it('gives every handler its context whole, never destructured', () => {
    const destructured = all.filter(({ fn }) => fn.parameters[1] && !ts.isIdentifier(fn.parameters[1].name)).map(({ where }) => where);
    expect(destructured).toEqual([]);
  });

  it('never passes the database apart from its context: a service takes it from the context', () => {
    const passed = all.flatMap((handler) => {
      const parameter = handler.fn.parameters[1];
      return parameter && ts.isIdentifier(parameter.name) ? databasesPassed(handler, parameter.name.text) : [];
    });
    expect(passed).toEqual([]);
  });
});
