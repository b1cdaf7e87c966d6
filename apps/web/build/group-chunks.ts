import path from 'node:path';
import { build, type InlineConfig, type Plugin, type ResolvedConfig, type Rollup } from 'vite';
import { planGroups, type ChunkNode } from './chunk-groups';

/**
 * Fewer scripts for a screen's first load. Over HTTP/1.1 a browser fetches six files at a time from
 * one server, and the file manager's first load was the entry and 47 shared chunks, as Rollup places
 * each module by the set of lazily loaded screens that use it. A first build (`firstPass`: the same
 * bundle's config, written nowhere) gives those chunks; `planGroups` groups the screen's ones, and
 * this build puts every module where the first put it, or in its chunk's group (`manualChunks`, only
 * those: a chunk placed by hand otherwise takes along the static imports placed by no one, and Rollup
 * would split the rest by which hand-placed chunks use it). A group never spans a chunk outside it
 * that it imports and that imports it back. It costs a second bundling pass.
 */
export function groupChunks({
  screens,
  apart,
  budget,
  firstPass,
}: {
  screens: string[];
  /** Prefixes of the lazily loaded modules that must not load more than `budget` bytes more. */
  apart: string[];
  budget: number;
  firstPass: () => InlineConfig;
}): Plugin {
  let resolved: ResolvedConfig;
  const chunkOf = new Map<string, string>();
  return {
    name: 'atelier-group-chunks',
    apply: 'build',
    configResolved(value) {
      resolved = value;
    },
    async buildStart() {
      const own = firstPass();
      const output = (await build({
        ...own,
        configFile: false,
        root: resolved.root,
        mode: resolved.mode,
        logLevel: 'warn',
        build: { ...own.build, write: false, sourcemap: false, emptyOutDir: false },
      })) as Rollup.RollupOutput;
      const chunks: ChunkNode[] = output.output
        .filter((item): item is Rollup.OutputChunk => item.type === 'chunk')
        .map((chunk) => ({ ...chunk, size: chunk.code.length }));
      const resolve = (file: string) => path.resolve(resolved.root, file);
      const prefixes = apart.map(resolve);
      for (const prefix of prefixes)
        if (!chunks.some((chunk) => chunk.isDynamicEntry && chunk.facadeModuleId?.startsWith(prefix)))
          this.error(`group chunks: no lazily loaded module starts with ${prefix}`);
      const groups = planGroups(chunks, {
        screens: screens.map(resolve),
        apart: (id) => prefixes.some((prefix) => id.startsWith(prefix)),
        budget,
      });
      // A group is named after its largest chunk. Names must differ per chunk: Rollup's repeat (index).
      // Numbered with a hyphen: the server names in a page only scripts of letters, digits, - _ and '.'.
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const names = new Map<string, string>();
      const used = new Set<string>();
      for (const chunk of chunks) {
        const key = groups.get(chunk.fileName) ?? chunk.fileName;
        let name = names.get(key);
        if (!name) {
          const base = byFile.get(key)!.name;
          name = base;
          for (let count = 2; used.has(name); count++) name = `${base}-${count}`;
          used.add(name);
          names.set(key, name);
        }
        for (const id of chunk.moduleIds) chunkOf.set(id, name);
      }
    },
    outputOptions(options) {
      // Modules that tree-shaking left out stay out: one placed in a chunk would import, for its side
      // effects, what it re-exports (react-i18next's index brought Trans to the entry).
      return { ...options, manualChunks: (id) => chunkOf.get(id), onlyExplicitManualChunks: true };
    },
  };
}
