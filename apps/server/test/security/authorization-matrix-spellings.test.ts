import { describe, expect, it } from 'vitest';
import { accessTable } from './access-table';
import {
  matrixApp,
  readsRawUrl,
  runPass,
  spellingInTurn,
  tableAnswer,
  unsentSpellings,
} from './matrix-runner';
import { elsewhere, respellPath } from './respellings';

/**
 * The authorization matrix again, on an app of its own, every call sent in another spelling of its
 * path (respellings.ts): each must be answered as the plain path is (the access table's answer, which
 * authorization-matrix.test.ts holds the plain spelling to). Its own file, so it runs beside that one.
 *
 * On SQLite only: which route a spelling reaches is decided by the router before any query, and the
 * route then runs the same queries as for the plain spelling, which authorization-matrix.test.ts
 * sends on every database.
 */
describe('authorization matrix, respelled [sqlite]', () => {
  const kind = 'sqlite';
  it(
    'answers every other spelling of a path as it answers the path: escaped letters and dot segments alike, an escaped slash nowhere',
    { timeout: 1_200_000 },
    async () => {
      const m = await matrixApp(kind);
      try {
        const result = await runPass(m, {
          name: 'the plain spelling',
          spell: (cell, url) => spellingInTurn(cell, url),
          expect: (cell, spelling) => ({
            status: tableAnswer(cell),
            orNotFound: spelling === 'escaped' && readsRawUrl(cell.row.route),
          }),
          // The escaped slash reaches no route: one probe a route, by its first caller.
          probes: (cell, url) => (cell.turn === 0 ? [respellPath(url, elsewhere)] : []),
        });
        const paths = [...result.spellings.values()].reduce((n, s) => n + s.size, 0);
        console.log(
          `authorization matrix [${kind}], respelled: ${result.respelled} of ${result.requests} requests over ${accessTable.length} routes ` +
            `(${paths} distinct paths, one escaped-slash probe a route)`,
        );
        expect(unsentSpellings(result)).toEqual([]);
        expect(result.failures).toEqual([]);
      } finally {
        await m.t.close();
      }
    },
  );
});
