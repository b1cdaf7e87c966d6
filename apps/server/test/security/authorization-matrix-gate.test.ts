import { describe, expect, it } from 'vitest';
import { OPEN_BEFORE_INSTALL, answerBeforeInstall, refusedInMaintenance } from './gate-table';
import {
  matrixApp,
  readsRawUrl,
  runPass,
  spellingInTurn,
  tableAnswer,
  type Cell,
  type Expectation,
  type SpellingKind,
} from './matrix-runner';

/** The route's own answer, reached through the gate: the table's, or 404 where a handler reads the raw URL. */
function routeAnswer(cell: Cell, spelling: SpellingKind, status = tableAnswer(cell)): Expectation {
  return { status, orNotFound: spelling === 'escaped' && readsRawUrl(cell.row.route) };
}

/**
 * The authorization matrix on an instance in maintenance mode and on one not installed yet, each on an
 * app of its own, every call sent in the plain spelling or another one in turn (respellings.ts): the
 * gate decides on the route that matched, so a spelling changes nothing of what it answers.
 *
 * On SQLite only: the gate answers from the matched route and the settings before any handler or
 * query of the route runs, and what it lets through runs as in the plain table, which
 * authorization-matrix.test.ts sends on every database (the routes' own queries are what differs).
 */
describe('authorization matrix, installation gate [sqlite]', () => {
  const kind = 'sqlite';
  it(
    'in maintenance mode, turns away everyone but admins from all but what stays open, however the path is spelled',
    { timeout: 1_200_000 },
    async () => {
      const m = await matrixApp(kind);
      try {
        const result = await runPass(m, {
          name: 'maintenance',
          spell: (cell, url) => spellingInTurn(cell, url, true),
          expect: (cell, spelling) =>
            refusedInMaintenance(cell.row.route, cell.actorKind)
              ? { status: 503, code: 'maintenance' }
              : routeAnswer(cell, spelling),
          // After the actors were made: the link password they open theirs with is closed in maintenance.
          prepare: () => m.t.deps.settings.set({ maintenance: true }),
        });
        console.log(
          `authorization matrix [${kind}], in maintenance: ${result.requests} requests, ${result.respelled} of them respelled`,
        );
        expect(result.failures).toEqual([]);
      } finally {
        await m.t.close();
      }
    },
  );

  it(
    'before the installation, answers not_installed to everything but the wizard, however the path is spelled',
    { timeout: 1_200_000 },
    async () => {
      const m = await matrixApp(kind);
      try {
        const result = await runPass(m, {
          name: 'the installation gate',
          spell: (cell, url) => spellingInTurn(cell, url, true),
          expect: (cell, spelling) =>
            OPEN_BEFORE_INSTALL.has(cell.row.route)
              ? routeAnswer(cell, spelling, answerBeforeInstall(cell.row.route))
              : { status: 503, code: 'not_installed' },
          prepare: () => m.t.deps.settings.set({ installed: false }),
        });
        console.log(
          `authorization matrix [${kind}], before installation: ${result.requests} requests, ${result.respelled} of them respelled`,
        );
        expect(result.failures).toEqual([]);
      } finally {
        await m.t.close();
      }
    },
  );
});
