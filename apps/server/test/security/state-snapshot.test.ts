import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it, onTestFinished } from 'vitest';
import { describeEachDatabase } from '../support/each-database';
import { createSession, createUser } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';
import { differences, snapshotter as openSnapshotter } from './state-snapshot';

/** A snapshotter that stops watching when the test ends, passed or not. */
function snapshotter(...args: Parameters<typeof openSnapshotter>) {
  const snapshot = openSnapshotter(...args);
  onTestFinished(() => snapshot.close());
  return snapshot;
}

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
    // Read again: the table written, and only that one.
    expect(
      [...updated.rows].flatMap(([table, rows]) => (rows === inserted.rows.get(table) ? [] : [table])),
    ).toEqual(['users']);

    await t.deps.database.db.deleteFrom('users').where('id', '=', user.id).execute();
    expect(differences(updated, await snapshot())).toContain(`table users (${users + 1} -> ${users} rows)`);
  });

  it('read no table again after a write of bookkeeping alone, and see the same row changed otherwise', async () => {
    const snapshot = snapshotter(t.deps.database, path.join(t.dataDir, 'storage'));
    const { user } = await createUser(t.deps);
    await createSession(t.deps, user);
    const before = await snapshot();
    const sessions = t.deps.database.db.updateTable('sessions').where('user_id', '=', user.id);

    // What a call does to a session older than five minutes: the same rows, not read again.
    await sessions.set({ last_active_at: new Date(Date.now() + 600_000).toISOString() }).execute();
    const touched = await snapshot();
    expect(touched.rows).toBe(before.rows);

    await sessions.set({ ip: '192.0.2.99' }).execute();
    expect(differences(touched, await snapshot())).toEqual(['table sessions (1 -> 1 rows)']);
  });

  it('see every stored file added, changed in place, added to a new folder or removed', async () => {
    const storage = path.join(t.dataDir, 'storage');
    const snapshot = snapshotter(t.deps.database, storage);
    mkdirSync(storage, { recursive: true });
    const file = path.join(storage, 'snapshot-probe.bin');
    const first = await snapshot();
    expect(differences(first, await snapshot())).toEqual([]);

    writeFileSync(file, 'one');
    const added = await snapshot();
    expect(differences(first, added)).toEqual(['stored file snapshot-probe.bin']);
    expect(differences(added, await snapshot())).toEqual([]);

    // In place, in the same tick of the file system's clock: the folder's times do not move.
    appendFileSync(file, ' two');
    const appended = await snapshot();
    expect(differences(added, appended)).toEqual(['stored file snapshot-probe.bin']);

    mkdirSync(path.join(storage, 'probe-folder'));
    writeFileSync(path.join(storage, 'probe-folder', 'inner.bin'), 'inner');
    const nested = await snapshot();
    expect(differences(appended, nested)).toEqual([`stored file ${path.join('probe-folder', 'inner.bin')}`]);

    rmSync(path.join(storage, 'probe-folder'), { recursive: true });
    rmSync(file);
    const removed = await snapshot();
    expect(differences(nested, removed).sort()).toEqual(
      [`stored file ${path.join('probe-folder', 'inner.bin')}`, 'stored file snapshot-probe.bin'].sort(),
    );

    // A folder made again where one was watched, and a file written in it after the snapshot saw it empty.
    const again = path.join(storage, 'again');
    mkdirSync(again);
    writeFileSync(path.join(again, 'first.bin'), 'first');
    const made = await snapshot();
    rmSync(again, { recursive: true });
    mkdirSync(again);
    const remade = await snapshot();
    expect(differences(made, remade)).toEqual([`stored file ${path.join('again', 'first.bin')}`]);
    writeFileSync(path.join(again, 'second.bin'), 'second');
    expect(differences(remade, await snapshot())).toEqual([
      `stored file ${path.join('again', 'second.bin')}`,
    ]);
  });

  it('see a stored file written by another process', async () => {
    const storage = path.join(t.dataDir, 'storage');
    const snapshot = snapshotter(t.deps.database, storage);
    mkdirSync(storage, { recursive: true });
    // The second snapshot is one that finds nothing reported (the first one's new watches are).
    await snapshot();
    const before = await snapshot();
    execFileSync('sh', ['-c', 'printf other >> "$0"', path.join(storage, 'other-process.bin')]);
    expect(differences(before, await snapshot())).toEqual(['stored file other-process.bin']);
  });

  it('is not fooled by a second snapshotter of the same database', async () => {
    const first = snapshotter(t.deps.database, path.join(t.dataDir, 'storage'));
    const before = await first();
    const again = snapshotter(t.deps.database, path.join(t.dataDir, 'storage'));
    expect(differences(before, await again())).toEqual([]);
    await t.deps.settings.set({ app_title: 'Written' });
    expect(
      differences(before, await again()).filter((change) => change.startsWith('table settings')),
    ).toHaveLength(1);
  });
});
