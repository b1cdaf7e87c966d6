import type { Plugin, Rollup } from 'vite';

/** V8's explicit compile hint: compile every function of the script while it streams in. */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/**
 * Marks each entry's chunk for V8 to compile whole on its streaming thread. Without it V8 compiles a
 * function lazily, on the main thread, when it is first called: about 55 of the ~190 ms of main-thread
 * CPU before a cold load's file list was parsing and compiling. The entry (React DOM, the router,
 * i18next, the frame) runs on every page, so little of it is compiled for nothing. Below the
 * bundler's own first line V8 took no notice of the comment, so it goes in last, on the first line,
 * and the source map starts a line lower.
 */
export function compileHints(): Plugin {
  return {
    name: 'atelier-compile-hints',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const chunk of Object.values(bundle)) {
          if (chunk.type !== 'chunk' || !chunk.isEntry) continue;
          chunk.code = `${COMPILE_HINT}\n${chunk.code}`;
          const map = bundle[`${chunk.fileName}.map`] as Rollup.OutputAsset | undefined;
          if (!map) continue;
          const parsed = JSON.parse(String(map.source)) as { mappings: string };
          map.source = JSON.stringify({ ...parsed, mappings: `;${parsed.mappings}` });
        }
      },
    },
  };
}
