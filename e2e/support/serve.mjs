// Starts the built server on a brand-new data directory, so every e2e run begins at the setup wizard.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dataDir = mkdtempSync(join(tmpdir(), 'atelier-e2e-'));
// E2E_SERVER_MAIN lets two runs on one machine each start their own build of the server.
const main =
  process.env.E2E_SERVER_MAIN ?? fileURLToPath(new URL('../../apps/server/dist/main.js', import.meta.url));
// The embedded shape: SQLite, local disk, mail to files, no Redis, whatever the CI environment sets.
const env = { ...process.env, PORT: process.env.E2E_PORT, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
env.APP_URL = `http://127.0.0.1:${env.PORT}`;
for (const name of ['DATABASE_URL', 'REDIS_URL', 'SMTP_URL', 'STORAGE_DRIVER']) delete env[name];
// The remote-upload journey fetches from a web server the spec starts on loopback.
env.REMOTE_UPLOAD_ALLOWED_PRIVATE_ADDRESSES = '127.0.0.1/32';

// Stripe's API cannot be reached from a test: a local server plays the one call a checkout makes
// (creating a Checkout Session), so a person's checkout is stored as it would be in production and
// the journeys' signed webhooks then report payments of real checkouts.
const stripe = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    const id = `cs_test_${Math.random().toString(36).slice(2, 12)}`;
    const found = request.method === 'POST' && request.url === '/v1/checkout/sessions';
    response.writeHead(found ? 200 : 404, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify(
        found
          ? { id, object: 'checkout.session', url: `https://checkout.stripe.com/c/pay/${id}` }
          : { error: { type: 'invalid_request_error', message: 'Not played by the e2e peer' } },
      ),
    );
  });
});
await new Promise((resolve) => stripe.listen(0, '127.0.0.1', resolve));
stripe.unref();
env.STRIPE_API_URL = `http://127.0.0.1:${stripe.address().port}`;

const server = spawn(process.execPath, [main], { stdio: ['ignore', 'pipe', 'inherit'], env });
server.stdout.setEncoding('utf8').pipe(process.stdout);

// The wizard opens only with the setup link the server prints at start; the specs read it from this file.
const setupLinkFile = process.env.E2E_SETUP_LINK_FILE;
if (setupLinkFile) {
  rmSync(setupLinkFile, { force: true });
  mkdirSync(dirname(setupLinkFile), { recursive: true });
  let printed = '';
  const keepSetupLink = (text) => {
    printed += text;
    const link = /Not installed yet: open (\S+) to run/.exec(printed)?.[1];
    if (!link) return;
    writeFileSync(setupLinkFile, link);
    server.stdout.off('data', keepSetupLink);
  };
  server.stdout.on('data', keepSetupLink);
}
// The metered journey puts an account into the state days of dunning leave (see data-dir.ts).
const dataDirFile = process.env.E2E_DATA_DIR_FILE;
if (dataDirFile) {
  mkdirSync(dirname(dataDirFile), { recursive: true });
  writeFileSync(dataDirFile, dataDir);
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
