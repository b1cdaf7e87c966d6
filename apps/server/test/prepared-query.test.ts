import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../src/db/database';
import { preparedQuery } from '../src/db/prepared-query';
import { describeEachDatabase } from './support/each-database';
import { createTestApp, type TestApp } from './support/test-app';

const setting = preparedQuery((db, wanted: { key: string; other: string }) =>
  db
    .selectFrom('settings')
    .select(['key', 'value'])
    .where((eb) => eb.or([eb('key', '=', wanted.key), eb('key', '=', wanted.other)]))
    .where('key', '!=', sql<string>`${wanted.other} || 'never'`)
    .orderBy('key'),
);

describeEachDatabase('prepared queries', (kind) => {
  let t: TestApp;
  let database: Database;
  const write = (key: string) =>
    database.db
      .insertInto('settings')
      .values({ key, value: JSON.stringify(key), updated_at: new Date().toISOString() })
      .execute();

  beforeAll(async () => {
    t = await createTestApp({ database: kind });
    database = t.deps.database;
    await write('prepared-a');
    await write('prepared-b');
    await write('prepared-c');
  });
  afterAll(() => t.close());

  it('runs the query compiled once with each call’s values, a value used twice bound at each place', async () => {
    const keys = async (key: string, other: string) =>
      (await setting(database, { key, other })).map((row) => row.key);
    expect(await keys('prepared-a', 'prepared-c')).toEqual(['prepared-a', 'prepared-c']);
    expect(await keys('prepared-b', 'missing')).toEqual(['prepared-b']);
    expect(await keys('missing', 'prepared-a')).toEqual(['prepared-a']);
  });

  it('joins the unit of work it is called in', async () => {
    await expect(
      database.transaction(async () => {
        await write('prepared-uncommitted');
        const seen = await setting(database, { key: 'prepared-uncommitted', other: 'missing' });
        expect(seen.map((row) => row.key)).toEqual(['prepared-uncommitted']);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(await setting(database, { key: 'prepared-uncommitted', other: 'missing' })).toEqual([]);
  });

  it('refuses a query whose result would not follow the values: a value of its own, one inlined, one that shapes the query', async () => {
    const ownValue = preparedQuery((db, wanted: { key: string }) =>
      db.selectFrom('settings').select('key').where('key', '=', wanted.key).where('value', '!=', 'fixed'),
    );
    await expect(ownValue(database, { key: 'prepared-a' })).rejects.toThrow('binds a value of its own');
    const inlined = preparedQuery((db, wanted: { key: string }) =>
      db.selectFrom('settings').select('key').where('key', '=', sql.lit(wanted.key)),
    );
    await expect(inlined(database, { key: 'prepared-a' })).rejects.toThrow('does not bind');
    const unused = preparedQuery((db, wanted: { key: string; other: string }) =>
      db
        .selectFrom('settings')
        .select('key')
        .where('key', '=', wanted.other.startsWith('prepared') ? wanted.other : wanted.key),
    );
    await expect(unused(database, { key: 'prepared-a', other: 'b' })).rejects.toThrow('does not bind other');
  });
});
