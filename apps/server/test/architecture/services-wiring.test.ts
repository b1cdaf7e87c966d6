import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { expect, it } from 'vitest';

const servicesFile = path.resolve(import.meta.dirname, '../../src/services.ts');

/** Whether `node` names a value where it stands (not a property's key, a member after a dot, or a declaration). */
function isReference(node: ts.Identifier): boolean {
  const parent = node.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) return false;
  if ((ts.isPropertyAssignment(parent) || ts.isMethodDeclaration(parent)) && parent.name === node)
    return false;
  if (ts.isVariableDeclaration(parent) || ts.isBindingElement(parent) || ts.isParameter(parent))
    return parent.name !== node && !(ts.isBindingElement(parent) && parent.propertyName === node);
  return !ts.isImportSpecifier(parent) && !ts.isImportClause(parent);
}

/**
 * Where services.ts names a service before the line that builds it: only a closure can, and such a
 * closure holds the wiring's cycle together unseen (issue 22). Modules that follow another's changes
 * join its listeners once both exist instead.
 */
function lateBound(source: ts.SourceFile): string[] {
  const declaredAt = new Map<string, number>();
  const declare = (name: ts.BindingName) => {
    if (ts.isIdentifier(name)) declaredAt.set(name.text, name.getStart());
    else for (const element of name.elements) if (!ts.isOmittedExpression(element)) declare(element.name);
  };
  const visitDeclarations = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node)) declare(node.name);
    ts.forEachChild(node, visitDeclarations);
  };
  visitDeclarations(source);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isIdentifier(node) && isReference(node)) {
      const declared = declaredAt.get(node.text);
      if (declared !== undefined && node.getStart() < declared) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart());
        found.push(`services.ts:${line + 1} names ${node.text} before it is built`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

it('services.ts builds every service before any closure names it', () => {
  const text = readFileSync(servicesFile, 'utf8');
  expect(lateBound(ts.createSourceFile(servicesFile, text, ts.ScriptTarget.Latest, true))).toEqual([]);
});

it('finds a closure naming a service built further down', () => {
  const text = [
    'const files = create({ replaced: (file) => projects.modelReplaced(file), users });',
    'const users = new Users();',
    'const projects = create({ files, users });',
  ].join('\n');
  expect(lateBound(ts.createSourceFile('services.ts', text, ts.ScriptTarget.Latest, true))).toEqual([
    'services.ts:1 names projects before it is built',
    'services.ts:1 names users before it is built',
  ]);
});
