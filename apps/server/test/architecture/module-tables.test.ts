import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { expect, it } from 'vitest';

const src = path.resolve(import.meta.dirname, '../../src');
// Migrations are the schema's history, written for every module at once.
const migrations = path.join(src, 'db/migrations');

/** The modules whose tables no other module names, each with the file declaring them. */
const MODULES = [
  {
    name: 'files',
    tables: 'files.tables.ts',
    expected: ['items', 'storage_usage', 'thumbnails', 'storage_purges'],
  },
  { name: 'sharing', tables: 'sharing.tables.ts', expected: ['shares', 'share_sessions'] },
  {
    name: 'teams',
    tables: 'teams.tables.ts',
    expected: ['team_folders', 'team_members', 'team_invitations'],
  },
];

function sourceFiles(dir: string, ...leaveOut: string[]): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory())
      return leaveOut.includes(file) || file === migrations ? [] : sourceFiles(file, ...leaveOut);
    return entry.name.endsWith('.ts') ? [file] : [];
  });
}

/** Where the files name one of `tables`: as the table of a Kysely call, a column reference or in SQL. */
function namings(files: string[], tables: string[]): string[] {
  const names = tables.join('|');
  const table = new RegExp(`^(${names})(\\s+as\\s+\\w+)?$`);
  // A column reference ('items.deleted_at'), or SQL naming the table.
  const reference = new RegExp(`^(${names})\\.\\w+$|\\b(from|join|into|update)\\s+"?(${names})\\b`, 'i');
  return files.flatMap((file) =>
    literals(file)
      .filter((literal) => (literal.table && table.test(literal.text)) || reference.test(literal.text))
      .map((literal) => `${path.relative(src, file)}: '${literal.text}'`),
  );
}

/** The tables a module declares into the app's schema (`declare module … interface DB`). */
function tablesOf(module: string, file: string): string[] {
  const text = readFileSync(path.join(src, 'modules', module, file), 'utf8');
  const block = /interface DB \{([^}]*)\}/.exec(text)?.[1] ?? '';
  return [...block.matchAll(/^\s*(\w+):/gm)].map((match) => match[1]!);
}

/** Kysely's calls that take a table name. */
const TABLE_CALLS = new Set([
  'selectFrom',
  'insertInto',
  'updateTable',
  'deleteFrom',
  'mergeInto',
  'innerJoin',
  'leftJoin',
  'rightJoin',
  'fullJoin',
  'using',
]);

/**
 * The text of every string and template literal of a file (where SQL and Kysely's column references
 * are), and whether it is the table argument of one of Kysely's calls.
 */
function literals(file: string): { text: string; table: boolean }[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: { text: string; table: boolean }[] = [];
  const isTableArgument = (node: ts.Node) =>
    ts.isCallExpression(node.parent) &&
    node.parent.arguments[0] === node &&
    ts.isPropertyAccessExpression(node.parent.expression) &&
    TABLE_CALLS.has(node.parent.expression.name.text);
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))
      found.push({ text: node.text, table: isTableArgument(node) });
    else if (ts.isTemplateExpression(node))
      found.push({
        text: [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(' ? '),
        table: false,
      });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

for (const module of MODULES) {
  it(`keeps the ${module.name} module’s tables to the ${module.name} module: every other module reads them through its port`, () => {
    const tables = tablesOf(module.name, module.tables);
    expect(tables).toEqual(expect.arrayContaining(module.expected));
    expect(namings(sourceFiles(src, path.join(src, 'modules', module.name)), tables)).toEqual([]);
  });
}

it('keeps the users table to the users module: sessions, app passwords, billing, teams and the admin join its queries or call it', () => {
  expect(namings(sourceFiles(src, path.join(src, 'modules', 'users')), ['users'])).toEqual([]);
});
