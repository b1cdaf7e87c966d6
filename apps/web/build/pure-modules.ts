import path from 'node:path';
import MagicString from 'magic-string';
import type { Plugin } from 'vite';

const CONTRACTS_SOURCE = path.resolve(import.meta.dirname, '../../../packages/contracts/src') + path.sep;
const LUCIDE_ICONS = `${path.sep}lucide-react${path.sep}dist${path.sep}esm${path.sep}icons${path.sep}`;

interface Node {
  type: string;
  start: number;
}

const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && typeof (value as Node).type === 'string';

/** Where each call and `new` of an expression starts, outside the bodies of the functions it defines. */
function callStarts(node: Node, starts: Set<number>): void {
  if (/Function/.test(node.type)) return;
  if (node.type === 'CallExpression' || node.type === 'NewExpression') starts.add(node.start);
  for (const value of Object.values(node)) {
    for (const child of Array.isArray(value) ? value : [value]) if (isNode(child)) callStarts(child, starts);
  }
}

/**
 * The contracts package declares `sideEffects: false`, yet the bundler keeps a top-level call it cannot
 * prove pure, such as a zod schema `z.string().min(1)`, with zod itself, in every page that imports
 * anything from the same file. Marking the calls of each top-level initializer pure, as the package
 * promises, leaves out the schemas (and zod) a page does not use. Lucide's icons are marked too
 * (`createLucideIcon(...)`), so an icon may join a chunk that loads with it instead of costing a request
 * of its own (`experimentalMinChunkSize` moves only code without side effects).
 */
export function pureModules(): Plugin {
  return {
    name: 'atelier-pure-modules',
    apply: 'build',
    transform(code, id) {
      if (!id.startsWith(CONTRACTS_SOURCE) && !id.includes(LUCIDE_ICONS)) return null;
      const starts = new Set<number>();
      for (const statement of this.parse(code).body as unknown as Node[]) {
        const declaration =
          statement.type === 'ExportNamedDeclaration'
            ? (statement as Node & { declaration: Node | null }).declaration
            : statement;
        if (declaration?.type !== 'VariableDeclaration') continue;
        for (const { init } of (declaration as Node & { declarations: { init: Node | null }[] })
          .declarations) {
          if (init) callStarts(init, starts);
        }
      }
      if (starts.size === 0) return null;
      const output = new MagicString(code);
      for (const start of starts) output.appendLeft(start, '/* @__PURE__ */ ');
      return { code: output.toString(), map: output.generateMap({ hires: true }) };
    },
  };
}
