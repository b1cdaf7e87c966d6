import path from 'node:path';
import { build, type InlineConfig, type Plugin, type ResolvedConfig } from 'vite';

/**
 * A page with an entry of its own (`html`), built after the app into the same folder by a build of
 * its own (`config`): it shares no chunk with the app, so its visitors load only what it uses and the
 * app's chunks stay exactly as they were. One build of both bundles would put every module the two
 * entries have in common (React, i18next, the query client…) in chunks of their own, which the app's
 * pages would then load as extra requests. In development the dev server answers the page's
 * addresses (`paths`) with its HTML, as the built server does (web.plugin.ts).
 */
export function separateEntry({
  html,
  paths,
  config,
}: {
  html: string;
  paths: RegExp;
  config: () => InlineConfig;
}): Plugin {
  let resolved: ResolvedConfig;
  let failed = false;
  return {
    name: 'atelier-separate-entry',
    configResolved(value) {
      resolved = value;
    },
    configureServer(server) {
      server.middlewares.use((request, _response, next) => {
        if (request.url && paths.test(request.url)) request.url = `/${html}`;
        next();
      });
    },
    buildEnd(error) {
      failed = error !== undefined;
    },
    async closeBundle() {
      if (resolved.command !== 'build' || failed) return;
      const own = config();
      await build({
        ...own,
        configFile: false,
        root: resolved.root,
        mode: resolved.mode,
        logLevel: resolved.logLevel,
        build: {
          ...own.build,
          outDir: resolved.build.outDir,
          emptyOutDir: false,
          rollupOptions: {
            ...own.build?.rollupOptions,
            input: path.resolve(resolved.root, html),
          },
        },
      });
    },
  };
}
