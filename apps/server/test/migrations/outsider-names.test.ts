import { randomUUID } from 'node:crypto';
import { Migrator, sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openConnection, type Connection } from '../../src/db/database';
import { migrateToLatest } from '../../src/db/migrate';
import { migrations } from '../../src/db/migrations/index';
import { createScratchDatabase, type ScratchDatabase } from '../support/databases';
import { describeEachDatabase } from '../support/each-database';

/**
 * Migration 0053 on a database that already holds what upload requests received: each such item is
 * shown to its outsider by the name it has, sorted as it sorts; the owner's items get no such name.
 */
describeEachDatabase('migration 0053-outsider-names', (kind) => {
  let scratch: ScratchDatabase;
  let connection: Connection;
  let db: Kysely<unknown>;
  const now = new Date().toISOString();

  beforeAll(async () => {
    scratch = await createScratchDatabase(kind);
    connection = openConnection(scratch.url);
    db = connection.db as unknown as Kysely<unknown>;
    // Every migration before 0053, recorded where the app's migrator looks for them.
    const before = migrations.slice(
      0,
      migrations.findIndex(([name]) => name === '0053-outsider-names'),
    );
    const { error } = await new Migrator({
      db,
      provider: {
        getMigrations: async () =>
          Object.fromEntries(
            before.map(([name, m]) => [name, { up: (d: Kysely<unknown>) => m.up(d, connection.dialect) }]),
          ),
      },
    }).migrateToLatest();
    if (error) throw error;
  });
  afterAll(async () => {
    await connection?.db.destroy();
    await scratch?.drop();
  });

  it('gives what requests received their names as their outsiders’ names, and nothing else one', async () => {
    const userId = randomUUID();
    await sql`insert into users (id, name, email, password_hash, color, created_at, updated_at)
      values (${userId}, 'Owner', ${`${userId}@example.test`}, 'x', '#000000', ${now}, ${now})`.execute(db);
    const item = async (name: string, uploadRequestId: string | null) => {
      const id = randomUUID();
      await sql`insert into items (id, user_id, type, name, sort_name, upload_request_id, created_at, updated_at)
        values (${id}, ${userId}, 'folder', ${name}, ${name.toLowerCase()}, ${uploadRequestId}, ${now}, ${now})`.execute(
        db,
      );
      return id;
    };
    const received = await item('Drawings (1)', randomUUID());
    const owners = await item('Drawings', null);

    expect(await migrateToLatest(connection)).toContain('0053-outsider-names');

    const { rows } = await sql<{
      id: string;
      outsider_name: string | null;
      outsider_sort_name: string | null;
    }>`
      select id, outsider_name, outsider_sort_name from items order by name`.execute(db);
    expect(rows).toEqual([
      { id: owners, outsider_name: null, outsider_sort_name: null },
      { id: received, outsider_name: 'Drawings (1)', outsider_sort_name: 'drawings (1)' },
    ]);
  });
});
