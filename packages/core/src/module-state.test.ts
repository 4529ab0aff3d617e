import { readdirSync, readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const sourceDir = new URL('./', import.meta.url);
const sources = readdirSync(sourceDir).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));

/**
 * Whether `node` makes a value nothing can change: a literal, a function, another binding,
 * a frozen value, a non-global pattern, a registered symbol, or an object literal of these
 * (the kinds of record and the system clock, data read by everyone).
 */
function isFixed(node: ts.Expression): boolean {
  if (ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isParenthesizedExpression(node)) return isFixed(node.expression);
  if (ts.isLiteralExpression(node) || ts.isIdentifier(node) || ts.isPropertyAccessExpression(node) || ts.isPrefixUnaryExpression(node)) return true;
  if (node.kind === ts.SyntaxKind.TrueKeyword || node.kind === ts.SyntaxKind.FalseKeyword || node.kind === ts.SyntaxKind.NullKeyword) return true;
  if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) return true;
  if (ts.isRegularExpressionLiteral(node)) return !/[gy][a-z]*$/u.test(node.text);
  if (ts.isObjectLiteralExpression(node)) return node.properties.every((member) => !ts.isPropertyAssignment(member) || isFixed(member.initializer));
  if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
    const callee = node.expression.getText();
    return ['Object.freeze', 'Symbol.for', 'RegExp'].includes(callee);
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

describe('the core', () => {
  it('holds no module-level mutable state: a cache, a counter or a shared generator lives in an object its caller makes', () => {
    expect(sources.length).toBeGreaterThan(10);
    expect(sources.flatMap(statefulBindingsOf)).toEqual([]);
  });
});
