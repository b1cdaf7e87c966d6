import type { Plugin } from 'vite';

/**
 * Names the fonts every first screen draws its text in as `preload` links of index.html, so the
 * browser fetches them with the page's scripts: found through the stylesheet, they were asked for
 * only once the screen had rendered, and its text waited for them or was drawn twice. `files` end
 * the fonts' source paths (the fontsource package's Latin files, which English text uses).
 */
export function preloadFonts(files: readonly string[]): Plugin {
  return {
    name: 'atelier-preload-fonts',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        const assets = Object.values(bundle ?? {}).filter((output) => output.type === 'asset');
        return files.map((file) => {
          const font = assets.find((asset) => asset.originalFileNames.some((name) => name.endsWith(file)));
          // A font renamed or dropped by its package would otherwise silently preload nothing.
          if (!font) throw new Error(`font preloads: no asset is built from ${file}`);
          return {
            tag: 'link',
            attrs: {
              rel: 'preload',
              as: 'font',
              type: 'font/woff2',
              crossorigin: true,
              href: `/${font.fileName}`,
            },
            injectTo: 'head',
          };
        });
      },
    },
  };
}
