// Which workspaces `npm start` must build: a build is current while the files it was made from are
// unchanged. Their paths and contents are hashed (not their times, which a checkout or a copy
// changes) and the hash is kept inside the build's output folder, so a deleted output builds again.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Folders no build reads from: dependencies, outputs, tests and tool caches. */
const SKIPPED = new Set(['node_modules', 'dist', 'test']);
/** Files every build depends on: the installed dependency versions and the shared compiler options. */
const SHARED_INPUTS = ['package-lock.json', 'tsconfig.base.json'];
const STAMP = '.build-inputs';

function filesUnder(root, relative) {
  const full = path.join(root, relative);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [relative];
  return readdirSync(full)
    .filter((name) => !SKIPPED.has(name) && !name.startsWith('.'))
    .flatMap((name) => filesUnder(root, path.join(relative, name)));
}

const readManifest = (root, folder) =>
  JSON.parse(readFileSync(path.join(root, folder, 'package.json'), 'utf8'));

/** The workspace folder and those of the workspace packages it depends on, directly or not. */
function sourceFolders(root, folder) {
  const folderOf = new Map(
    readManifest(root, '.').workspaces.map((each) => [readManifest(root, each).name, each]),
  );
  const folders = new Set();
  const visit = (current) => {
    if (folders.has(current)) return;
    folders.add(current);
    const { dependencies, devDependencies } = readManifest(root, current);
    for (const name of Object.keys({ ...dependencies, ...devDependencies })) {
      if (folderOf.has(name)) visit(folderOf.get(name));
    }
  };
  visit(folder);
  return [...folders];
}

/** A hash of every file the workspace in `folder` (relative to `root`) is built from. */
export function inputsHash(root, folder) {
  const hash = createHash('sha256');
  const files = [...sourceFolders(root, folder), ...SHARED_INPUTS].flatMap((input) =>
    filesUnder(root, input),
  );
  for (const file of [...new Set(files)].sort()) {
    hash.update(`${file.split(path.sep).join('/')}\0`);
    hash.update(readFileSync(path.join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Whether `output` holds a build made from files with this hash. */
export function isBuiltFrom(output, hash) {
  const stamp = path.join(output, STAMP);
  return existsSync(stamp) && readFileSync(stamp, 'utf8') === hash;
}

/** Records, once a build succeeded, the hash of the files it was made from. */
export function markBuiltFrom(output, hash) {
  writeFileSync(path.join(output, STAMP), hash);
}
