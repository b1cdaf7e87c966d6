import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/each-database';
import { createUser } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';
import { differences, snapshotter } from './state-snapshot';

// The matrix's "changed nothing" rests on this: a snapshot taken after any write differs, even when
// it reads the tables again only after its write marker moved.
describeEachDatabase('state snapshots', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ database: kind });
  });
  afterAll(() => t.close());

  it('see every insert, update and delete, and nothing where nothing was written', async () => {
    const snapshot = snapshotter(t.deps.database, path.join(t.dataDir, 'storage'));
    const first = await snapshot();
    expect(differences(first, await snapshot())).toEqual([]);

    const { user } = await createUser(t.deps);
    const inserted = await snapshot();
    const users = first.rows.get('users')!.length;
    expect(differences(first, inserted)).toContain(`table users (${users} -> ${users + 1} rows)`);

    await t.deps.database.db
      .updateTable('users')
      .set({ name: 'Renamed' })
      .where('id', '=', user.id)
      .execute();
    const updated = await snapshot();
    expect(differences(inserted, updated)).toContain(`table users (${users + 1} -> ${users + 1} rows)`);

    await t.deps.database.db.deleteFrom('users').where('id', '=', user.id).execute();
    expect(differences(updated, await snapshot())).toContain(`table users (${users + 1} -> ${users} rows)`);
  });

  it('is not fooled by a second snapshotter of the same database', async () => {
    const before = await snapshotter(t.deps.database, path.join(t.dataDir, 'storage'))();
    const again = snapshotter(t.deps.database, path.join(t.dataDir, 'storage'));
    expect(differences(before, await again())).toEqual([]);
    await t.deps.settings.set({ app_title: 'Written' });
    expect(
      differences(before, await again()).filter((change) => change.startsWith('table settings')),
    ).toHaveLength(1);
  });
});
