// Starts the built server on a brand-new data directory, so every e2e run begins at the setup wizard.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dataDir = mkdtempSync(join(tmpdir(), 'atelier-e2e-'));
const main = fileURLToPath(new URL('../../apps/server/dist/main.js', import.meta.url));
// The embedded shape: SQLite, local disk, mail to files, no Redis, whatever the CI environment sets.
const env = { ...process.env, PORT: process.env.E2E_PORT, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
env.APP_URL = `http://127.0.0.1:${env.PORT}`;
for (const name of ['DATABASE_URL', 'REDIS_URL', 'SMTP_URL', 'STORAGE_DRIVER']) delete env[name];
const server = spawn(process.execPath, [main], { stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
