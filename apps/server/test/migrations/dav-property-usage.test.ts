import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate';
import { propertyBytes } from '../../src/modules/webdav/webdav.tables';
import { databaseBefore } from '../support/database-before';
import { describeEachDatabase } from '../support/each-database';

/**
 * Migration 0028 on a database that already holds dead properties: what they take must join their
 * owners' usage once, as the triggers count those written after it.
 */
describeEachDatabase('migration 0028-dav-property-usage', (kind) => {
  const database = databaseBefore(kind, '0028-dav-property-usage');
  const now = new Date().toISOString();

  const user = async () => {
    const id = randomUUID();
    await sql`insert into users (id, name, email, password_hash, color, created_at, updated_at)
      values (${id}, 'Someone', ${`${id}@example.test`}, 'x', '#000000', ${now}, ${now})`.execute(
      database.db,
    );
    return id;
  };
  const item = async (userId: string, type: 'file' | 'folder', size = 0) => {
    const id = randomUUID();
    await sql`insert into items (id, user_id, type, name, sort_name, size, created_at, updated_at)
      values (${id}, ${userId}, ${type}, ${id}, ${id}, ${size}, ${now}, ${now})`.execute(database.db);
    return id;
  };
  /** A dead property as migration 0022 stored it: no owner, no size. */
  const property = async (itemId: string, namespace: string, name: string, value: string) => {
    await sql`insert into dav_properties (item_id, namespace, name, value)
      values (${itemId}, ${namespace}, ${name}, ${value})`.execute(database.db);
    return propertyBytes({ namespace, name, value });
  };
  const usedBytes = async () => {
    const { rows } = await sql<{ user_id: string; used_bytes: number | string }>`
      select user_id, used_bytes from storage_usage`.execute(database.db);
    return new Map(rows.map((row) => [row.user_id, Number(row.used_bytes)]));
  };

  it("adds the dead properties already stored to their owners' usage, and gives each row its owner and size", async () => {
    // One owner with files and properties on a file and a folder, in characters of 1 to 4 bytes.
    const withFiles = await user();
    const file = await item(withFiles, 'file', 1_000);
    const folder = await item(withFiles, 'folder');
    await item(withFiles, 'file', 234);
    // One whose only properties sit on a folder: no file ever gave them a usage row.
    const foldersOnly = await user();
    const bare = await item(foldersOnly, 'folder');
    // One with a file and no properties: the migration leaves them as they were.
    const untouched = await user();
    await item(untouched, 'file', 77);

    const added = new Map<string, number>([
      [
        withFiles,
        (await property(file, 'urn:z', 'colour', 'rouge é')) +
          (await property(file, 'http://example.com/ns/', 'note', '<x:n xmlns:x="urn:x">日本語 😀</x:n>')) +
          (await property(folder, 'urn:z', 'label', 'v'.repeat(5_000))),
      ],
      [foldersOnly, await property(bare, 'urn:z', 'émoji', '😀😀')],
    ]);
    const before = await usedBytes();
    expect(before.get(withFiles)).toBe(1_234);
    expect(before.get(foldersOnly) ?? 0).toBe(0);
    expect(before.get(untouched)).toBe(77);

    expect(await migrateToLatest(database.connection)).toContain('0028-dav-property-usage');

    const after = await usedBytes();
    expect(after.get(withFiles)).toBe(1_234 + added.get(withFiles)!);
    expect(after.get(foldersOnly)).toBe(added.get(foldersOnly));
    expect(after.get(untouched)).toBe(77);
    const { rows } = await sql<{
      owner_id: string | null;
      user_id: string;
      bytes: number;
      namespace: string;
      name: string;
      value: string;
    }>`select dav_properties.*, items.user_id from dav_properties
         join items on items.id = dav_properties.item_id`.execute(database.db);
    expect(rows).toHaveLength(4);
    for (const row of rows) {
      expect(row.owner_id).toBe(row.user_id);
      expect(Number(row.bytes)).toBe(propertyBytes(row));
    }

    // Counted once: a property removed afterwards takes back what the backfill added, no more.
    await sql`delete from dav_properties where item_id = ${bare}`.execute(database.db);
    expect((await usedBytes()).get(foldersOnly)).toBe(0);
  });
});
