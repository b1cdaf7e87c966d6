import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { buildApp } from './app';
import { resolveDatabaseUrl } from './db/database-url';
import { DatabaseUnavailableError, openPreparedDatabase } from './db/prepare';
import { ConfigError, parseEnv } from './env';
import { startWorkerRole } from './jobs/worker-role';
import { closeOnSignals } from './lib/shutdown-signals';

async function main(): Promise<void> {
  const env = parseEnv();
  mkdirSync(env.dataDir, { recursive: true });
  const choice = resolveDatabaseUrl(env);
  const database = await openPreparedDatabase(choice.url);
  const app = await buildApp({ env, database, databasePinned: choice.pinned });

  closeOnSignals(async (signal) => {
    app.log.info(`${signal} received, shutting down`);
    await app.close();
    process.exit(0);
  });

  if (env.SERVICES.includes('api')) {
    await app.listen({ port: env.PORT, host: env.HOST });
    // With PORT=0 the system picks the port; show the real one unless APP_URL names the public address.
    const { port } = app.server.address() as AddressInfo;
    const url = env.APP_URL ? env.appUrl : `http://localhost:${port}`;
    const installed = await app.deps.settings.get('installed');
    console.log(`Atelier is running at ${url}`);
    if (env.TRUST_PROXY !== false) console.log(trustedProxyNotice(env.HOST, port));
    if (!installed) {
      // The wizard makes its first visitor admin, so it answers only to the token in this link.
      const setupUrl = `${url}/install?token=${await app.deps.setup.issueSetupToken()}`;
      console.log(`Not installed yet: open ${setupUrl} to run the setup wizard.`);
      console.log(
        'Whoever opens this link can install Atelier and become its admin; it stops working once installed.',
      );
      if (env.ATELIER_OPEN_BROWSER) openInBrowser(setupUrl);
    }
  } else {
    await app.ready();
  }
  if (env.SERVICES.includes('worker')) startWorkerRole(app.deps);
}

/** Behind a trusted proxy a caller reaching the port directly could pick the address it is seen from. */
function trustedProxyNotice(host: string, port: number): string {
  return host === '127.0.0.1'
    ? 'TRUST_PROXY is set: listening on 127.0.0.1 only, for a proxy on this machine (set HOST for a proxy elsewhere).'
    : `TRUST_PROXY is set and the server listens on ${host}: only the proxy may reach port ${port}, or any caller can choose the address it is seen from.`;
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
  // Configuration mistakes and an unreachable database get one clear line; anything else keeps its stack for the operator.
  if (error instanceof ConfigError || error instanceof DatabaseUnavailableError) console.error(error.message);
  else console.error(error);
  process.exit(1);
});
