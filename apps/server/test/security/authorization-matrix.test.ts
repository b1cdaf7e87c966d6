import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/each-database';
import { accessTable, type AccessRow } from './access-table';
import { ACTOR_KINDS } from './actors';
import { OPEN_BEFORE_INSTALL, OPEN_IN_MAINTENANCE } from './gate-table';
import { matrixApp, runPass, tableAnswer, type MatrixApp } from './matrix-runner';

describeEachDatabase('authorization matrix', (kind) => {
  let m: MatrixApp;

  // Seeds every actor's data (argon2id app passwords, versioned files): minutes on a loaded CI machine.
  beforeAll(async () => {
    m = await matrixApp(kind);
  }, 300_000);
  afterAll(() => m.t.close());

  it('has exactly one row for every route the app serves', () => {
    const rows = accessTable.map((row) => row.route);
    const problems = [
      ...[...m.routes.keys()]
        .filter((key) => !rows.includes(key as AccessRow['route']))
        .map((key) => `${key} is served but has no row in access-table.ts: declare who may call it`),
      ...rows
        .filter((key) => !m.routes.has(key))
        .map((key) => `${key} has a row but the app no longer serves it`),
      ...rows.filter((key, i) => rows.indexOf(key) !== i).map((key) => `${key} has more than one row`),
      ...[...OPEN_BEFORE_INSTALL, ...OPEN_IN_MAINTENANCE]
        .filter((key) => !m.routes.has(key))
        .map((key) => `${key} is open in gate-table.ts but the app does not serve it`),
    ];
    expect(problems).toEqual([]);
  });

  it(
    'answers each actor as the table says, shows nobody else’s data, and changes nothing it refuses',
    // WebDAV's rows sign in with app passwords: argon2id for every wrong one.
    { timeout: 600_000 },
    async () => {
      const result = await runPass(m, {
        name: 'the table',
        spell: (_cell, url) => ({ url, kind: 'plain' }),
        expect: (cell) => ({ status: tableAnswer(cell) }),
      });
      console.log(
        `authorization matrix [${kind}]: ${accessTable.length} routes × ${ACTOR_KINDS.length} actors = ` +
          `${accessTable.length * ACTOR_KINDS.length} cells, ${result.requests} requests (override and HEAD forms included)`,
      );
      expect(result.failures).toEqual([]);
    },
  );
});
