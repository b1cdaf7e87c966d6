import { ItemList, TeamFolderDocument, VersionList } from '@atelier/contracts';
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Kysely } from 'kysely';
import type { DB, UserRow } from '../../src/db/schema';
import { SubscriptionsService } from '../../src/modules/billing/subscriptions.service';
import { FilesRepository } from '../../src/modules/files/files.repository';
import { storagePurgeJob } from '../../src/modules/files/files.jobs';
import { ABANDONED_UPLOAD_MS } from '../../src/modules/files/files.tasks';
import { VersionsRepository } from '../../src/modules/files/versions.repository';
import { SettingsService } from '../../src/modules/settings/settings.service';
import { UsersRepository } from '../../src/modules/users/users.repository';
import { ChunkedUploadsRepository } from '../../src/modules/webdav/webdav.chunked-uploads.repository';
import type { TestAgent } from '../support/agent';
import type { DatabaseKind } from '../support/databases';
import { createUser, signedInAgent } from '../support/factories';
import { killedWhileFiling } from '../support/killed-while-filing';
import { latch, pauseOnce } from '../support/latch';
import { basic } from '../webdav/webdav-harness';
import {
  chunkRequest,
  createFilesTestApp,
  filesMatrix,
  multipartBody,
  uploadFile,
  uploaded,
  type FilesTestApp,
  type StorageKind,
} from '../files/files-harness';

type Person = { user: UserRow; agent: TestAgent };

/** Every row that names the user, table by table, to prove the deletion leaves none. */
async function rowsOf(t: FilesTestApp, userId: string): Promise<Record<string, number>> {
  const db = t.deps.database.db;
  const count = async (
    table:
      | 'items'
      | 'shares'
      | 'upload_requests'
      | 'team_members'
      | 'team_folders'
      | 'sessions'
      | 'upload_sessions',
  ) =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const tables = [
    'items',
    'shares',
    'upload_requests',
    'team_members',
    'team_folders',
    'sessions',
    'upload_sessions',
  ] as const;
  return Object.fromEntries(await Promise.all(tables.map(async (table) => [table, await count(table)])));
}

/** An app of the matrix's kind with an administrator signed in, who deletes the accounts. */
async function appWithAdmin(database: DatabaseKind, storage: StorageKind, clock?: () => Date) {
  const t = await createFilesTestApp(database, storage, {}, clock);
  const admin = await signedInAgent(
    t.app,
    (await createUser(t.deps, { name: 'Ada Admin', role: 'admin' })).user,
  );
  return { t, admin };
}

/** Runs the purge job until storage holds only `before`, no purge left behind. */
async function purgedTo(t: FilesTestApp, before: string[]): Promise<void> {
  const worker = t.deps.jobs.startWorker({ definitions: [storagePurgeJob], services: t.deps });
  try {
    await expect.poll(async () => (await t.storedObjects()).sort(), { timeout: 15_000 }).toEqual(before);
  } finally {
    await worker.close();
  }
  expect(await t.deps.database.db.selectFrom('storage_purges').selectAll().execute()).toEqual([]);
}

for (const [database, storage] of filesMatrix) {
  describe(`admin: deleting a user [${database}, ${storage}]`, () => {
    let t: FilesTestApp;
    let admin: Person;
    let victim: Person;
    let bystander: Person;
    let bystanderFile: string;
    let bystanderTeam: string;
    let bystanderObjects: string[];

    beforeAll(async () => {
      ({ t, admin } = await appWithAdmin(database, storage));
      bystander = await signedInAgent(t.app, (await createUser(t.deps, { name: 'Bo Bystander' })).user);
      victim = await signedInAgent(t.app, (await createUser(t.deps, { name: 'Vic Victim' })).user);

      // The bystander's own things, and a team folder the victim is a member of and uploads into.
      bystanderFile = (await uploaded(bystander.agent, randomBytes(3000), { name: 'keep.bin' })).id;
      const team = await bystander.agent.post('/api/teams/folders', {
        name: 'Shared studio',
        invitations: [{ email: victim.user.email, permission: 'can_edit' }],
      });
      expect(team.statusCode, team.body).toBe(201);
      bystanderTeam = TeamFolderDocument.parse(team.json()).data.id;
      const invitation = await t.deps.database.db
        .selectFrom('team_invitations')
        .select('id')
        .where('folder_id', '=', bystanderTeam)
        .executeTakeFirstOrThrow();
      expect((await victim.agent.put(`/api/teams/invitations/${invitation.id}`)).statusCode).toBe(204);
      await uploaded(victim.agent, randomBytes(500), { name: 'for-bo.bin', parentId: bystanderTeam });
      bystanderObjects = (await t.storedObjects()).sort();

      // The victim's: files, an image, an avatar, a share link, an upload request, an own team
      // folder with the bystander in it, and a chunked upload left half done.
      const folder = (await victim.agent.post('/api/create-folder', { name: 'Mine' })).json().data
        .id as string;
      const stored = await uploaded(victim.agent, randomBytes(5000), { name: 'a.bin', parentId: folder });
      // Stored as blocks too: their objects go with the account.
      expect(await t.deps.blockifier.blockify((await t.deps.items.findFile(stored.id))!.storage_key!)).toBe(
        'blocks',
      );
      const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#f00' } })
        .png()
        .toBuffer();
      await uploaded(victim.agent, png, { name: 'photo.png' });
      const { payload, headers } = multipartBody([{ file: 'avatar', filename: 'me.png', data: png }]);
      expect((await victim.agent.post('/api/user/avatar', payload, { headers })).statusCode).toBe(200);
      expect(
        (await victim.agent.post('/api/share', { id: folder, type: 'folder', permission: 'visitor' }))
          .statusCode,
      ).toBe(201);
      expect(
        (await victim.agent.post('/api/file-request', { folder_id: null, name: 'Send me' })).statusCode,
      ).toBe(201);
      const own = await victim.agent.post('/api/teams/folders', {
        name: 'Vic team',
        invitations: [{ email: bystander.user.email, permission: 'can_view' }],
      });
      expect(own.statusCode, own.body).toBe(201);
      const half = await chunkRequest(victim.agent, randomBytes(70_000), {
        name: 'half.bin',
        key: 'halfdone-half.bin.part',
        last: false,
      });
      expect(half.statusCode, half.body).toBeLessThan(300);
    });
    afterAll(() => t.close());

    it('answers 204 at once; the account and all it owns are gone, its bytes after the job, nobody else’s touched', async () => {
      expect((await t.storedObjects()).length).toBeGreaterThan(bystanderObjects.length + 5);
      const before = await rowsOf(t, victim.user.id);
      expect(Object.values(before).every((n) => n > 0)).toBe(true);

      const answer = await admin.agent.delete(`/api/admin/users/${victim.user.id}`, { name: 'Vic Victim' });
      expect(answer.statusCode, answer.body).toBe(204);
      expect(await t.deps.users.findById(victim.user.id)).toBeUndefined();
      expect(Object.values(await rowsOf(t, victim.user.id))).toEqual([0, 0, 0, 0, 0, 0, 0]);
      expect((await victim.agent.get('/api/user')).statusCode).toBe(401);

      const worker = t.deps.jobs.startWorker({ definitions: [storagePurgeJob], services: t.deps });
      try {
        await expect
          .poll(async () => (await t.storedObjects()).sort(), { timeout: 15_000 })
          .toEqual(bystanderObjects);
      } finally {
        await worker.close();
      }
      const left = await t.deps.database.db.selectFrom('storage_purges').selectAll().execute();
      expect(left).toEqual([]);

      // The bystander keeps their file, their team folder and what the victim put in it.
      const download = await bystander.agent.get(`/file/${bystanderFile}`);
      expect(download.statusCode).toBe(200);
      expect(download.rawPayload.length).toBe(3000);
      const team = await bystander.agent.get(`/api/teams/folders/${bystanderTeam}`);
      expect(team.statusCode).toBe(200);
      expect(team.json().data.map((item: { attributes: { name: string } }) => item.attributes.name)).toEqual([
        'for-bo.bin',
      ]);
      expect(team.json().meta.teamFolder.members).toEqual([]);
      expect((await bystander.agent.get('/api/teams/shared-with-me/all')).json().data).toEqual([]);

      const [entry] = (await admin.agent.get('/api/admin/audit')).json().data;
      expect(entry).toMatchObject({
        action: 'user.deleted',
        target: { id: victim.user.id, name: 'Vic Victim' },
      });
    });
  });
}

const image = (background: string) =>
  sharp({ create: { width: 64, height: 64, channels: 3, background } })
    .png()
    .toBuffer();

for (const [database, storage] of filesMatrix) {
  describe(`admin: deleting a user leaves none of the objects written for it, however timed [${database}, ${storage}]`, () => {
    let t: FilesTestApp;
    let admin: Person;
    /** What storage holds before each test's account stores anything. */
    let before: string[];
    /** How far the app's clock runs ahead of the real one. */
    let ahead = 0;

    beforeAll(async () => {
      ({ t, admin } = await appWithAdmin(database, storage, () => new Date(Date.now() + ahead)));
    });
    afterAll(() => t.close());

    const deleteAccount = (user: UserRow) =>
      admin.agent.delete(`/api/admin/users/${user.id}`, { name: user.name });

    /** Deletes the account as an administrator, then runs the purge job until storage holds only `before`. */
    async function deleteAndPurge(user: UserRow): Promise<void> {
      const answer = await deleteAccount(user);
      expect(answer.statusCode, answer.body).toBe(204);
      await purged();
    }

    const purged = () => purgedTo(t, before);

    it('deletes the sizes a killed process stored before naming them, which no sweep deletes once the account is gone', async () => {
      before = (await t.storedObjects()).sort();
      const { user } = await createUser(t.deps, { name: 'Kim Killed' });
      const killed = await killedWhileFiling(t, {
        counts: (_body, options) => options?.contentType === 'image/webp',
      });
      // The process dies as the user's row is being changed to name the new sizes.
      const naming = vi.spyOn(UsersRepository.prototype, 'update').mockRejectedValue(new Error('killed'));
      try {
        await expect(t.deps.avatars.replace(user, await image('#0f0'))).rejects.toThrow('killed');
      } finally {
        naming.mockRestore();
        killed.restore();
      }
      expect(killed.written).toHaveLength(3);
      await deleteAndPurge(user);
    });

    it('deletes the avatar the account has as it goes, not the one the request read (a change in between)', async () => {
      before = (await t.storedObjects()).sort();
      const { user } = await createUser(t.deps, { name: 'Tab Twice' });
      const read = await t.deps.avatars.replace(user, await image('#00f'));
      // Another tab replaces the avatar after the deletion read the account, before it deletes it.
      const stopRenewing = SubscriptionsService.prototype.stopRenewingFor;
      const replacing = vi
        .spyOn(SubscriptionsService.prototype, 'stopRenewingFor')
        .mockImplementation(async function (this: SubscriptionsService, userId) {
          await t.deps.avatars.replace(read, await image('#ff0'));
          return stopRenewing.call(this, userId);
        });
      try {
        await deleteAndPurge(user);
        expect(replacing).toHaveBeenCalledOnce();
      } finally {
        replacing.mockRestore();
      }
    });

    it('deletes an avatar being filed as the account goes, neither waiting on the other for good', async () => {
      before = (await t.storedObjects()).sort();
      const { user } = await createUser(t.deps, { name: 'Mid Upload' });
      // The upload's sizes are stored and its filing has begun, as the administrator deletes the account.
      const { paused, go, restore } = pauseOnce(UsersRepository.prototype, 'lockAvatar', 'before');
      try {
        const uploading = t.deps.avatars.replace(user, await image('#f0f')).catch((error: unknown) => error);
        await paused;
        const deleting = deleteAccount(user);
        // The deletion ends first where it takes nothing the filing holds, or waits on it.
        await Promise.race([deleting, new Promise((resolve) => setTimeout(resolve, 500))]);
        go();
        const answer = await deleting;
        expect(answer.statusCode, answer.body).toBe(204);
        await uploading;
      } finally {
        restore();
      }
      await purged();
    });

    it('names no logo an administrator uploads as their account goes: the deletion took its objects', async () => {
      before = (await t.storedObjects()).sort();
      const { user } = await createUser(t.deps, { name: 'Leaving Admin', role: 'admin' });
      const logoBefore = await t.deps.settings.get('app_logo');
      // The logo's renditions are stored and its naming has begun, as the account is deleted.
      const { paused, go, restore } = pauseOnce(SettingsService.prototype, 'swap', 'before');
      try {
        const uploading = t.deps.settingsImages
          .replace(user.id, 'app_logo', await image('#0ff'))
          .catch((error: unknown) => error);
        await paused;
        const deleting = deleteAccount(user);
        // On PostgreSQL the deletion runs to its end meanwhile (the naming holds no lock yet); SQLite
        // writes one unit of work at a time, so there it waits for the naming.
        if (database === 'postgres') await deleting;
        else await Promise.race([deleting, new Promise((resolve) => setTimeout(resolve, 500))]);
        go();
        const answer = await deleting;
        expect(answer.statusCode, answer.body).toBe(204);
        const filed = await uploading;
        if (typeof filed === 'string') {
          // Named before the deletion began (SQLite writes one unit of work at a time): the logo is
          // the instance's and keeps its renditions.
          const key = (await t.deps.settings.get('app_logo'))!;
          expect(filed).toContain(key);
          const renditions = (await t.storedObjects()).filter((object) => object.includes(key));
          expect(renditions.length).toBeGreaterThan(0);
          before = [...before, ...renditions].sort();
        } else {
          // Named after the deletion took what its reservation held: refused, the setting as it was.
          expect(filed).toMatchObject({ code: 'not_found' });
          expect(await t.deps.settings.get('app_logo')).toEqual(logoBefore);
        }
      } finally {
        restore();
      }
      await purged();
    });

    /** A file of the owner's filed out of a reservation, as a render files its outputs. */
    async function fileOut(ownerId: string, name: string): Promise<string> {
      const reservation = (await t.deps.uploads.reserve(ownerId, 5))!;
      try {
        const { key } = await reservation.put(randomBytes(5), { contentType: 'application/octet-stream' });
        const now = new Date().toISOString();
        const stored = {
          parentId: null,
          name,
          mimetype: 'application/octet-stream',
          size: 5,
          storageKey: key,
          now,
        };
        return (await reservation.file(stored)).id;
      } finally {
        await reservation.release();
      }
    }

    /**
     * Deletes the account while `filing` is paused at `paused` (it then holds what its unit of work
     * took so far), and lets it go on once the deletion ended or waits on it: the deletion answers
     * 204 and the filing ends either way, no deadlock failing one; then the account's objects, those
     * filed too, go by the purge job and the upload sweep.
     */
    async function deleteWhileFiling<T>(
      user: UserRow,
      paused: Promise<void>,
      go: () => void,
      filing: Promise<T>,
    ): Promise<T | unknown> {
      const settled = filing.catch((error: unknown) => error);
      await paused;
      const deleting = deleteAccount(user);
      await Promise.race([deleting, new Promise((resolve) => setTimeout(resolve, 500))]);
      go();
      const answer = await deleting;
      expect(answer.statusCode, answer.body).toBe(204);
      const outcome = await settled;
      // Filed before the deletion went on, or refused as the account was gone: never failed on a deadlock.
      if (outcome instanceof Error) expect(outcome.message).not.toMatch(/deadlock/);
      const now = new Date(Date.now() + ABANDONED_UPLOAD_MS + 60_000);
      await t.deps.uploads.sweepAbandoned(ABANDONED_UPLOAD_MS, now);
      await purgedTo(t, before);
      expect(await t.deps.database.db.selectFrom('upload_sessions').selectAll().execute()).toEqual([]);
      return outcome;
    }

    it('a file filed out of a reservation (a render’s output, a copy) between taking its object back and its row', async () => {
      before = (await t.storedObjects()).sort();
      const { user } = await createUser(t.deps, { name: 'Rene Render' });
      const { paused, go, restore } = pauseOnce(FilesRepository.prototype, 'fileFromReservation', 'before');
      try {
        await deleteWhileFiling(user, paused, go, fileOut(user.id, 'render.bin'));
      } finally {
        restore();
      }
    });

    it('thumbnails kept between their rows and taking their objects back', async () => {
      before = (await t.storedObjects()).sort();
      const { user } = await createUser(t.deps, { name: 'Theo Thumb' });
      const itemId = await fileOut(user.id, 'picture.bin');
      const { paused, go, restore } = pauseOnce(FilesRepository.prototype, 'insertThumbnails', 'after');
      const thumbnail = { size: 'xs' as const, data: randomBytes(10), width: 8, height: 8 };
      try {
        await deleteWhileFiling(user, paused, go, t.deps.thumbnails.save(itemId, [thumbnail]));
      } finally {
        restore();
      }
    });

    /** An account signed in, with a file saved twice: its first bytes (3,000) are kept as a version. */
    async function savedTwice(name: string) {
      const { user } = await createUser(t.deps, { name });
      const { password } = await t.deps.appPasswords.create(user.id, { name: 'WebDAV' });
      const { agent } = await signedInAgent(t.app, user);
      const file = await uploaded(agent, randomBytes(3000), { name: 'plan.step' });
      await uploaded(agent, randomBytes(4000), { name: 'plan.step', conflict: 'replace' });
      return { user, agent, dav: basic(user.email, password), fileId: file.id };
    }

    /**
     * Pauses a change of versions once its next `step` is made: after `removeVersion` its unit of
     * work holds the owner's usage (the recount of the versions' bytes locks it); after `makeCurrent`,
     * the file's row too. Either way it has still to name the account (a version's row, a notice).
     */
    function pausedAfter(step: 'removeVersion' | 'makeCurrent') {
      return pauseOnce(VersionsRepository.prototype, step, 'after');
    }

    it('a version restored as the account goes: restored before, or 404, never a 500', async () => {
      before = (await t.storedObjects()).sort();
      const { user, agent, fileId } = await savedTwice('Rhea Restore');
      const [, kept] = VersionList.parse((await agent.get(`/api/files/${fileId}/versions`)).json()).data;
      const { paused, go, restore } = pausedAfter('removeVersion');
      try {
        const restoring = agent.post(`/api/files/${fileId}/versions/${kept!.id}/restore`);
        const answer = (await deleteWhileFiling(user, paused, go, restoring)) as Awaited<typeof restoring>;
        expect([200, 404], answer.body).toContain(answer.statusCode);
      } finally {
        restore();
      }
    });

    it('versions let go to make room as the account goes: gone before, or nothing to do, no deadlock', async () => {
      before = (await t.storedObjects()).sort();
      const { user } = await savedTwice('Molly Room');
      // Two days on, the version kept may go for room (an upload past the quota asks for it).
      ahead = 2 * 24 * 60 * 60_000;
      const { paused, go, restore } = pausedAfter('removeVersion');
      try {
        await deleteWhileFiling(user, paused, go, t.deps.versions.makeRoom(user.id, 1));
      } finally {
        restore();
        ahead = 0;
      }
    });

    it('a file replaced through WebDAV as the account goes: replaced before, or 404, never a 500', async () => {
      before = (await t.storedObjects()).sort();
      const { user, dav } = await savedTwice('Will Webdav');
      const { paused, go, restore } = pausedAfter('makeCurrent');
      try {
        const replacing = t.app.inject({
          method: 'PUT',
          url: '/dav/files/plan.step',
          payload: randomBytes(5000),
          headers: { authorization: dav },
        });
        const answer = (await deleteWhileFiling(user, paused, go, replacing)) as Awaited<typeof replacing>;
        expect([204, 404], answer.body).toContain(answer.statusCode);
      } finally {
        restore();
      }
    });

    /** The user's WebDAV chunked transfer `name` (chunking v1), opened, with one chunk of 10,000 bytes. */
    async function transferUnderWay(dav: string, user: UserRow, name: string) {
      const transfer = `/remote.php/dav/uploads/${user.email}/${name}`;
      const put = (chunk: string) =>
        t.app.inject({
          method: 'PUT',
          url: `${transfer}/${chunk}`,
          payload: randomBytes(10_000),
          headers: { authorization: dav },
        });
      const opened = await t.app.inject({
        method: 'MKCOL' as 'POST',
        url: transfer,
        headers: { authorization: dav },
      });
      expect(opened.statusCode).toBe(201);
      expect((await put('0000000000000000')).statusCode).toBe(201);
      return { put };
    }

    it('the chunks of a WebDAV chunked transfer left half done go with the account', async () => {
      before = (await t.storedObjects()).sort();
      const { user, dav } = await savedTwice('Chuck Chunks');
      await transferUnderWay(dav, user, 'half-done');
      await deleteAndPurge(user);
    });

    it('a WebDAV chunk stored as the account goes: kept before, or 409, never a 500 nor left behind', async () => {
      before = (await t.storedObjects()).sort();
      const { user, dav } = await savedTwice('Cara Chunk');
      const { put } = await transferUnderWay(dav, user, 'racing');
      // The chunk's bytes are stored; its row is still to be written.
      const { paused, go, restore } = pauseOnce(ChunkedUploadsRepository.prototype, 'putChunk', 'before');
      try {
        const storing = put('0000000000010000');
        const answer = (await deleteWhileFiling(user, paused, go, storing)) as Awaited<typeof storing>;
        expect([201, 409], answer.body).toContain(answer.statusCode);
      } finally {
        restore();
      }
    });

    /** A PROPPATCH of plan.step setting the property urn:z colour, over WebDAV. */
    const colour = (dav: string, value: string) =>
      t.app.inject({
        method: 'PROPPATCH' as 'POST',
        url: '/dav/files/plan.step',
        payload: `<D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:z"><D:set><D:prop><Z:colour>${value}</Z:colour></D:prop></D:set></D:propertyupdate>`,
        headers: { authorization: dav, 'content-type': 'application/xml' },
      });

    /**
     * Pauses the next unit of work that writes `table` just before it inserts there, its deletes
     * made: a PROPPATCH has deleted the value it replaces, which holds the owner's usage (its
     * trigger's recount), and has still to name the item; a LOCK has deleted the owner's expired
     * locks, and has still to name the account.
     */
    function pausedBeforeInsertInto(table: 'dav_properties' | 'dav_locks' | 'file_contents') {
      const { reached, paused, go, gone } = latch();
      const database = t.deps.database;
      const transaction = database.transaction.bind(database);
      let pending = true;
      /** The unit's transaction, its inserts into `table` waiting (the first one) for the test. */
      const pausing = (trx: Kysely<DB>) =>
        new Proxy(trx, {
          get(target, key) {
            const value: unknown = Reflect.get(target, key);
            // Kysely's methods read private fields: they run on the transaction itself.
            if (key !== 'insertInto') return typeof value === 'function' ? value.bind(target) : value;
            return (into: typeof table) => {
              const query = target.insertInto(into);
              if (into !== table || !pending) return query;
              pending = false;
              const values = query.values.bind(query);
              query.values = (rows) => {
                const insert = values(rows);
                const execute = insert.execute.bind(insert);
                insert.execute = async () => {
                  reached();
                  await gone;
                  return execute();
                };
                return insert;
              };
              return query;
            };
          },
        });
      const spy = vi
        .spyOn(database, 'transaction')
        .mockImplementation((work) => transaction((trx) => work(pausing(trx))));
      return { paused, go, restore: () => spy.mockRestore() };
    }

    it('a property set through WebDAV as the account goes: set before, or 404, never a 500', async () => {
      before = (await t.storedObjects()).sort();
      const { user, dav } = await savedTwice('Pat Proppatch');
      expect((await colour(dav, 'red')).statusCode).toBe(207);
      const { paused, go, restore } = pausedBeforeInsertInto('dav_properties');
      try {
        const patching = colour(dav, 'blue');
        const answer = (await deleteWhileFiling(user, paused, go, patching)) as Awaited<typeof patching>;
        expect([207, 404], answer.body).toContain(answer.statusCode);
      } finally {
        restore();
      }
      const left = t.deps.database.db
        .selectFrom('dav_properties')
        .selectAll()
        .where('owner_id', '=', user.id);
      expect(await left.execute()).toEqual([]);
    });

    /**
     * Locks `url` for a minute as whoever `authorization` names, then, the lock expired, again while
     * the account `user` is deleted: the second LOCK has deleted the expired lock (a row naming the
     * account) and has still to insert its own. Taken before, or 404, never a 500.
     */
    async function lockAgainAsAccountGoes(user: UserRow, url: string, authorization: string) {
      const lock = () =>
        t.app.inject({
          method: 'LOCK' as 'POST',
          url,
          payload:
            '<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner>me</D:owner></D:lockinfo>',
          headers: { authorization, 'content-type': 'application/xml', timeout: 'Second-60' },
        });
      expect((await lock()).statusCode).toBe(200);
      ahead = 2 * 60_000;
      const { paused, go, restore } = pausedBeforeInsertInto('dav_locks');
      try {
        const locking = lock();
        const answer = (await deleteWhileFiling(user, paused, go, locking)) as Awaited<typeof locking>;
        expect([200, 404], answer.body).toContain(answer.statusCode);
      } finally {
        restore();
        ahead = 0;
      }
    }

    it('a lock taken through WebDAV as the account goes: taken before, or 404, never a 500', async () => {
      before = (await t.storedObjects()).sort();
      const { user, dav } = await savedTwice('Lorna Lock');
      await lockAgainAsAccountGoes(user, '/dav/files/plan.step', dav);
      const left = t.deps.database.db.selectFrom('dav_locks').selectAll().where('owner_id', '=', user.id);
      expect(await left.execute()).toEqual([]);
    });

    /** A team folder of a new owner's, with a new member who may edit it. */
    async function teamWithMember(name: string) {
      const owner = await createUser(t.deps, { name: `${name} Owner` });
      const ownerAgent = (await signedInAgent(t.app, owner.user)).agent;
      const made = await ownerAgent.post('/api/teams/folders', { name: `${name} studio`, invitations: [] });
      expect(made.statusCode, made.body).toBe(201);
      const team = TeamFolderDocument.parse(made.json()).data.id;
      const { user } = await createUser(t.deps, { name: `${name} Member` });
      await t.deps.database.db
        .insertInto('team_members')
        .values({
          folder_id: team,
          user_id: user.id,
          permission: 'can_edit',
          created_at: new Date().toISOString(),
        })
        .execute();
      return { ownerAgent, team, member: user };
    }

    it("a member's upload into a team folder as the member's account goes: filed before, or 404, never a 500", async () => {
      const { ownerAgent, team, member } = await teamWithMember('Uma');
      const memberAgent = (await signedInAgent(t.app, member)).agent;
      const { paused, go, restore } = pausedBeforeInsertInto('file_contents');
      let answer;
      try {
        const uploading = uploadFile(memberAgent, randomBytes(700), { name: 'sketch.bin', parentId: team });
        await paused;
        const deleting = deleteAccount(member);
        await Promise.race([deleting, new Promise((resolve) => setTimeout(resolve, 500))]);
        go();
        expect((await deleting).statusCode).toBe(204);
        answer = (await uploading).at(-1)!;
      } finally {
        restore();
      }
      expect([201, 401, 404], answer.body).toContain(answer.statusCode);
      const listed = ItemList.parse((await ownerAgent.get(`/api/browse/folders/${team}`)).json()).data;
      expect(listed.map((item) => item.attributes.name)).toEqual(
        answer.statusCode === 201 ? ['sketch.bin'] : [],
      );
    });

    it("a member's lock taken in a team folder as the member's account goes: taken before, or 404, never a 500", async () => {
      const { ownerAgent, team, member } = await teamWithMember('Mia');
      await uploaded(ownerAgent, randomBytes(300), { name: 'plan.step', parentId: team });
      const { password } = await t.deps.appPasswords.create(member.id, { name: 'WebDAV' });
      before = (await t.storedObjects()).sort();
      await lockAgainAsAccountGoes(
        member,
        '/dav/shared/Mia%20studio/plan.step',
        basic(member.email, password),
      );
      const left = t.deps.database.db
        .selectFrom('dav_locks')
        .selectAll()
        .where('principal_id', '=', member.id);
      expect(await left.execute()).toEqual([]);
    });
  });
}
