import { readdirSync, readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const sourceDir = new URL('./', import.meta.url);
const sources = readdirSync(sourceDir).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));

/**
 * Whether `node` makes a value nothing can change: a literal, a function, another binding,
 * a non-global pattern, a registered symbol, or a frozen object or array of these (the
 * kinds of record and the system clock, data read by everyone). `frozen` is set inside
 * `Object.freeze(...)`: an object or array literal outside it could still be changed, and
 * a Map or Set stays changeable however frozen.
 */
function isFixed(node: ts.Expression, frozen = false): boolean {
  if (ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isParenthesizedExpression(node)) return isFixed(node.expression, frozen);
  // A global or sticky pattern keeps its lastIndex between uses.
  if (ts.isRegularExpressionLiteral(node)) return !/[gy][a-z]*$/u.test(node.text);
  if (ts.isLiteralExpression(node) || ts.isIdentifier(node) || ts.isPropertyAccessExpression(node) || ts.isPrefixUnaryExpression(node)) return true;
  if (node.kind === ts.SyntaxKind.TrueKeyword || node.kind === ts.SyntaxKind.FalseKeyword || node.kind === ts.SyntaxKind.NullKeyword) return true;
  if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) return true;
  if (ts.isObjectLiteralExpression(node)) {
    return frozen && node.properties.every((member) => ts.isMethodDeclaration(member) || (ts.isPropertyAssignment(member) && isFixed(member.initializer, false)));
  }
  if (ts.isArrayLiteralExpression(node)) return frozen && node.elements.every((element) => isFixed(element, false));
  if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
    const callee = node.expression.getText();
    const [argument] = node.arguments ?? [];
    if (callee === 'Object.freeze') return argument !== undefined && isFixed(argument, true);
    // A frozen table made at load (uuid-v7's hex digits): its entries are what its function returns, strings.
    if (callee === 'Array.from') return frozen;
    return ['Symbol.for', 'RegExp'].includes(callee);
  }
  return false;
}

/** The module-level bindings of `source` that hold state: `let`, `var`, or a `const` of anything not fixed. */
function statefulBindingsOf(name: string): string[] {
  const file = ts.createSourceFile(name, readFileSync(new URL(name, sourceDir), 'utf8'), ts.ScriptTarget.Latest, true);
  return file.statements.filter(ts.isVariableStatement).flatMap((statement) => {
    const isConst = (statement.declarationList.flags & ts.NodeFlags.Const) !== 0;
    return statement.declarationList.declarations
      .filter((declaration) => !isConst || declaration.initializer === undefined || !isFixed(declaration.initializer))
      .map((declaration) => `${name}: ${declaration.name.getText()}`);
  });
}

describe('what counts as fixed', () => {
  const fixedOf = (text: string) => isFixed((ts.createSourceFile('x.ts', `const x = ${text};`, ts.ScriptTarget.Latest, true).statements[0] as ts.VariableStatement).declarationList.declarations[0]?.initializer as ts.Expression);
  it.each(['1', "'a'", '() => 1', 'Object.freeze({ a: 1, b: () => 2 })', 'Object.freeze([1, 2])', "Symbol.for('x')"])('%s is fixed', (text) => {
    expect(fixedOf(text)).toBe(true);
  });
  it.each(['{}', '{ a: 1 }', '[1]', 'new Map()', 'Object.freeze(new Map())', 'Object.freeze({ cache: new Map() })', 'Object.freeze({ a: {} })', '/x/g'])('%s is not', (text) => {
    expect(fixedOf(text)).toBe(false);
  });
});

describe('the core', () => {
  it('holds no module-level mutable state: a cache, a counter or a shared generator lives in an object its caller makes', () => {
    expect(sources.length).toBeGreaterThan(10);
    expect(sources.flatMap(statefulBindingsOf)).toEqual([]);
  });
});
