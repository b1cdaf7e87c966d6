import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { buildApp } from './app';
import { resolveDatabaseUrl } from './db/database-url';
import { openPreparedDatabase } from './db/prepare';
import { ConfigError, parseEnv } from './env';
import { startWorkerRole } from './jobs/worker-role';

async function main(): Promise<void> {
  const env = parseEnv();
  mkdirSync(env.dataDir, { recursive: true });
  const choice = resolveDatabaseUrl(env);
  const database = await openPreparedDatabase(choice.url);
  const app = await buildApp({ env, database, databasePinned: choice.pinned });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      app.log.info(`${signal} received, shutting down`);
      void app.close().then(() => process.exit(0));
    });
  }

  if (env.SERVICES.includes('api')) {
    await app.listen({ port: env.PORT, host: env.HOST });
    const installed = await app.deps.settings.get('installed');
    console.log(`Atelier is running at ${env.appUrl}`);
    if (!installed) {
      console.log(`Not installed yet: open ${env.appUrl}/install to run the setup wizard.`);
      if (env.ATELIER_OPEN_BROWSER) openInBrowser(`${env.appUrl}/install`);
    }
  } else {
    await app.ready();
  }
  if (env.SERVICES.includes('worker')) startWorkerRole(app.deps);
}

/** Best effort: on a machine without a desktop the opener is missing and nothing happens. */
function openInBrowser(url: string): void {
  const opener =
    process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const child = spawn(opener, [url], { stdio: 'ignore', detached: true });
  child.on('error', () => {});
  child.unref();
}

main().catch((error: unknown) => {
  // Configuration mistakes get one clear line; anything else keeps its stack for the operator.
  if (error instanceof ConfigError) console.error(error.message);
  else console.error(error);
  process.exit(1);
});
