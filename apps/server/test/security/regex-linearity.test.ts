import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkSync } from 'recheck';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
/** Code that sees request input: the server and the schemas it validates with. */
const SOURCES = ['apps/server/src', 'packages/contracts/src'];

interface Pattern {
  where: string;
  source: string;
  flags: string;
}

function* typeScriptFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* typeScriptFiles(full);
    else if (entry.name.endsWith('.ts')) yield full;
  }
}

/** Every regular expression literal in the sources, read with the TypeScript parser. */
function patterns(): Pattern[] {
  const found: Pattern[] = [];
  for (const dir of SOURCES) {
    for (const file of typeScriptFiles(path.join(root, dir))) {
      const sourceFile = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
      const visit = (node: ts.Node) => {
        if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
          const text = node.getText(sourceFile);
          const end = text.lastIndexOf('/');
          const line = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile)).line + 1;
          found.push({
            where: `${path.relative(root, file)}:${line}`,
            source: text.slice(1, end),
            flags: text.slice(end + 1),
          });
        }
        ts.forEachChild(node, visit);
      };
      visit(sourceFile);
    }
  }
  return found;
}

describe('regular expressions', () => {
  // Checking each pattern is CPU work (seconds on a quiet machine); the limit only catches a hang, and
  // a loaded CI machine running it beside the journeys stretched it past the default 30 s.
  it('run in linear time on any input, so no request can make one backtrack', { timeout: 180_000 }, () => {
    const all = patterns();
    expect(all.length).toBeGreaterThan(30);
    const unsafe = all
      .map((p) => ({ ...p, result: checkSync(p.source, p.flags) }))
      .filter((p) => p.result.status !== 'safe')
      .map((p) => `${p.where} /${p.source}/${p.flags}: ${p.result.status}`);
    expect(unsafe).toEqual([]);
  });
});
