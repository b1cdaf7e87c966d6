import path from 'node:path';
import type { ManualChunksOption } from 'rollup';

const CONTRACTS_SOURCE = path.resolve(import.meta.dirname, '../../../packages/contracts/src') + path.sep;
const ZOD = `${path.sep}node_modules${path.sep}zod${path.sep}`;

const CONTRACTS_STRINGS = `${CONTRACTS_SOURCE}i18n${path.sep}`;
/** The package's barrel: in a chunk of its own choosing it would take every file it names along. */
const CONTRACTS_INDEX = `${CONTRACTS_SOURCE}index.ts`;

/**
 * zod and every contracts file holding schemas share one chunk, loaded by the screens that validate
 * (forms, on submit) and by no other. Left to the bundler, a small file of schemas joins whatever
 * chunk a screen loads with it (`experimentalMinChunkSize`), and brings zod to screens that read
 * nothing but a constant, such as the file manager. The constants (`@atelier/contracts/constants`)
 * get a chunk of their own, or the schemas' chunk, which imports them, would take them in.
 */
export const schemaChunk: ManualChunksOption = (id, { getModuleInfo }) => {
  if (id.includes(ZOD)) return 'schemas';
  if (!id.startsWith(CONTRACTS_SOURCE) || id.startsWith(CONTRACTS_STRINGS) || id === CONTRACTS_INDEX)
    return undefined;
  return getModuleInfo(id)?.importedIds.some((imported) => imported.includes(ZOD)) ? 'schemas' : 'constants';
};
