import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { expect, it } from 'vitest';

const servicesFile = path.resolve(import.meta.dirname, '../../src/services.ts');

/** Whether `node` names a value where it stands (not a property's key, a member after a dot, a declaration or a type). */
function isReference(node: ts.Identifier): boolean {
  const parent = node.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) return false;
  if ((ts.isPropertyAssignment(parent) || ts.isMethodDeclaration(parent)) && parent.name === node)
    return false;
  if (ts.isVariableDeclaration(parent) || ts.isBindingElement(parent) || ts.isParameter(parent))
    return parent.name !== node && !(ts.isBindingElement(parent) && parent.propertyName === node);
  for (let above: ts.Node | undefined = parent; above; above = above.parent)
    if (ts.isTypeNode(above)) return false;
  return !ts.isImportSpecifier(parent) && !ts.isImportClause(parent);
}

/** A statement of the file or of one of its functions (createServices): where services are built, not a closure's locals. */
const isWiringStatement = (node: ts.Node) =>
  ts.isSourceFile(node.parent) ||
  (ts.isBlock(node.parent) &&
    ts.isFunctionDeclaration(node.parent.parent) &&
    ts.isSourceFile(node.parent.parent.parent));

/**
 * Where services.ts names a service before the line that builds it: only a closure can, and such a
 * closure holds the wiring's cycle together unseen (issue 22). A service is built where it is
 * declared, or where it is last assigned (a `let` filled in later is built only then). Modules that
 * follow another's changes join its listeners once both exist instead.
 */
function lateBound(source: ts.SourceFile): string[] {
  const builtAt = new Map<string, number>();
  const declare = (name: ts.BindingName) => {
    if (ts.isIdentifier(name)) builtAt.set(name.text, name.getStart());
    else for (const element of name.elements) if (!ts.isOmittedExpression(element)) declare(element.name);
  };
  const visitDeclarations = (node: ts.Node) => {
    if (ts.isVariableStatement(node) && isWiringStatement(node))
      for (const declaration of node.declarationList.declarations) declare(declaration.name);
    ts.forEachChild(node, visitDeclarations);
  };
  visitDeclarations(source);
  const visitAssignments = (node: ts.Node) => {
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isIdentifier(node.left) &&
      builtAt.has(node.left.text)
    )
      builtAt.set(node.left.text, Math.max(builtAt.get(node.left.text)!, node.getStart()));
    ts.forEachChild(node, visitAssignments);
  };
  visitAssignments(source);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      ts.isIdentifier(node) &&
      isReference(node) &&
      !(ts.isBinaryExpression(node.parent) && node.parent.left === node)
    ) {
      const built = builtAt.get(node.text);
      if (built !== undefined && node.getStart() < built) {
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
    'let jobs: Jobs | undefined;',
    'const queue = create({ run: () => jobs!.start() });',
    'jobs = new Jobs(queue);',
    'const local = () => { const users = 1; return users; };',
  ].join('\n');
  expect(lateBound(ts.createSourceFile('services.ts', text, ts.ScriptTarget.Latest, true))).toEqual([
    'services.ts:1 names projects before it is built',
    'services.ts:1 names users before it is built',
    'services.ts:5 names jobs before it is built',
  ]);
});
