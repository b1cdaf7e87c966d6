import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate';
import { databaseBefore } from '../support/database-before';
import { describeEachDatabase } from '../support/each-database';

/**
 * Migration 0053 on a database that already holds what upload requests received: each such item is
 * shown to its outsider by the name it has, sorted as it sorts; the owner's items get no such name.
 */
describeEachDatabase('migration 0053-outsider-names', (kind) => {
  const database = databaseBefore(kind, '0053-outsider-names');
  const now = new Date().toISOString();

  it('gives what requests received their names as their outsiders’ names, and nothing else one', async () => {
    const userId = randomUUID();
    await sql`insert into users (id, name, email, password_hash, color, created_at, updated_at)
      values (${userId}, 'Owner', ${`${userId}@example.test`}, 'x', '#000000', ${now}, ${now})`.execute(
      database.db,
    );
    const item = async (name: string, uploadRequestId: string | null) => {
      const id = randomUUID();
      await sql`insert into items (id, user_id, type, name, sort_name, upload_request_id, created_at, updated_at)
        values (${id}, ${userId}, 'folder', ${name}, ${name.toLowerCase()}, ${uploadRequestId}, ${now}, ${now})`.execute(
        database.db,
      );
      return id;
    };
    const received = await item('Drawings (1)', randomUUID());
    const owners = await item('Drawings', null);

    expect(await migrateToLatest(database.connection)).toContain('0053-outsider-names');

    const { rows } = await sql<{
      id: string;
      outsider_name: string | null;
      outsider_sort_name: string | null;
    }>`
      select id, outsider_name, outsider_sort_name from items order by name`.execute(database.db);
    expect(rows).toEqual([
      { id: owners, outsider_name: null, outsider_sort_name: null },
      { id: received, outsider_name: 'Drawings (1)', outsider_sort_name: 'drawings (1)' },
    ]);
  });
});
