// `npm start` on a fresh clone: install what is missing, build, then run the whole product
// (SPA, API and realtime in one process) on SQLite and local disk.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

const run = (cmd, args) => {
  const result = spawnSync(cmd, args, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

const lockfile = 'package-lock.json';
const installed = 'node_modules/.package-lock.json';
if (!existsSync(installed) || statSync(lockfile).mtimeMs > statSync(installed).mtimeMs) {
  console.log('Installing dependencies…');
  run('npm', ['install', '--no-audit', '--no-fund']);
}
console.log('Building…');
run('npm', ['run', 'build', '--silent']);

const args = existsSync('.env')
  ? ['--env-file=.env', 'apps/server/dist/main.js']
  : ['apps/server/dist/main.js'];
const server = spawn(process.execPath, args, {
  stdio: 'inherit',
  env: { ...process.env, ATELIER_OPEN_BROWSER: '1' },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
