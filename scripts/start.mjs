// `npm start` on a fresh clone: install what is missing, build what changed, then run the whole
// product (SPA, API and realtime in one process) on SQLite and local disk.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { inputsHash, isBuiltFrom, markBuiltFrom } from './build-stamp.mjs';

/** The workspaces `npm run build` builds, in its order: each with the folder its build writes. */
const BUILDS = [
  { folder: 'packages/render', output: 'packages/render/dist' },
  { folder: 'apps/web', output: 'apps/web/dist' },
  { folder: 'apps/server', output: 'apps/server/dist' },
];

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
for (const { folder, output } of BUILDS) {
  // Hashed before the build, so a file edited while it runs makes the next start build again.
  const hash = inputsHash('.', folder);
  if (isBuiltFrom(output, hash)) continue;
  console.log(`Building ${folder}…`);
  run('npm', ['run', 'build', '--silent', '--workspace', folder]);
  markBuiltFrom(output, hash);
}

const args = existsSync('.env')
  ? ['--env-file=.env', 'apps/server/dist/main.js']
  : ['apps/server/dist/main.js'];
const server = spawn(process.execPath, args, {
  stdio: 'inherit',
  env: { ATELIER_OPEN_BROWSER: '1', ...process.env },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
