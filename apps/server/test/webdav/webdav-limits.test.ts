import { AdminUserDetail, StorageUsage } from '@atelier/contracts';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCKS_PER_OWNER_MAX } from '../../src/modules/webdav/webdav.locks';
import type { UserRow } from '../../src/db/schema';
import { describeEachDatabase } from '../support/each-database';
import { createUser, signedInAgent } from '../support/factories';
import { createFilesTestApp, type FilesTestApp } from '../files/files-harness';
import { basic } from './webdav-harness';

const ALLPROP = '<D:propfind xmlns:D="DAV:"><D:allprop/></D:propfind>';
/** What the Nextcloud desktop client asks of a folder it syncs. */
const SYNC_PROPFIND =
  '<d:propfind xmlns:d="DAV:" xmlns:oc="http://owncloud.org/ns" xmlns:nc="http://nextcloud.org/ns"><d:prop>' +
  '<d:resourcetype/><d:getlastmodified/><d:getcontentlength/><d:getetag/><oc:id/><oc:fileid/>' +
  '<oc:permissions/><oc:size/><oc:checksums/><nc:has-preview/></d:prop></d:propfind>';
const lockinfo = (owner: string) =>
  `<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner>${owner}</D:owner></D:lockinfo>`;
/** A PROPPATCH setting each `[name, value]` in the namespace urn:z. */
const proppatch = (properties: [string, string][]) =>
  `<D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:z"><D:set><D:prop>${properties
    .map(([name, value]) => `<Z:${name}>${value}</Z:${name}>`)
    .join('')}</D:prop></D:set></D:propertyupdate>`;

/** The issue "Trust, round two": what WebDAV bodies and dead properties may cost the server. */
describeEachDatabase('WebDAV limits', (kind) => {
  let t: FilesTestApp;
  let owner: { user: UserRow; auth: string };

  const person = async (overrides: { storageCapacity?: number } = {}) => {
    const { user } = await createUser(t.deps, overrides);
    const { password } = await t.deps.appPasswords.create(user.id, { name: 'WebDAV' });
    return { user, auth: basic(user.email, password) };
  };
  const dav = (
    auth: string,
    method: string,
    url: string,
    payload?: string,
    headers: Record<string, string> = {},
  ) => t.app.inject({ method: method as 'GET', url, payload, headers: { authorization: auth, ...headers } });
  const deadProperties = async (userId: string) =>
    t.deps.database.db
      .selectFrom('dav_properties')
      .innerJoin('items', 'items.id', 'dav_properties.item_id')
      .select(['dav_properties.name', 'dav_properties.value'])
      .where('items.user_id', '=', userId)
      .orderBy('dav_properties.name')
      .execute();

  const personWithFile = async () => {
    const someone = await person();
    expect((await dav(someone.auth, 'PUT', '/dav/files/target.txt', 'target')).statusCode).toBe(201);
    return someone;
  };

  beforeAll(async () => {
    t = await createFilesTestApp(kind, 'local');
    owner = await person();
    expect((await dav(owner.auth, 'PUT', '/dav/files/target.txt', 'target')).statusCode).toBe(201);
  });
  afterAll(() => t?.close());

  /** Bytes used as the quota counts them, and as the user resource shows them. */
  const usage = async (userId: string) => {
    const row = await t.deps.database.db
      .selectFrom('storage_usage')
      .select('used_bytes')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return { counted: Number(row?.used_bytes ?? 0), shown: (await t.deps.limits.of(userId)).used };
  };
  const bytesOf = (name: string, value: string) => Buffer.byteLength(`urn:z${name}${value}`);
  const remove = (names: string[]) =>
    `<D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:z"><D:remove><D:prop>${names
      .map((name) => `<Z:${name}/>`)
      .join('')}</D:prop></D:remove></D:propertyupdate>`;
  const statuses = (body: string) =>
    [...body.matchAll(/<D:propstat><D:prop>(.*?)<\/D:prop><D:status>HTTP\/1.1 (\d+)/g)].flatMap(
      ([, props, status]) => [...props!.matchAll(/<p\d+:(\w+)/g)].map(([, name]) => `${name} ${status}`),
    );

  it('keeps at most 64 dead properties of 16 KiB each and 64 KiB in all per resource (507, nothing changed)', async () => {
    const someone = await person();
    expect((await dav(someone.auth, 'PUT', '/dav/files/f.txt', 'f')).statusCode).toBe(201);
    const tooMany = Array.from({ length: 65 }, (_, i): [string, string] => [`n${i}`, 'x']);
    const many = await dav(someone.auth, 'PROPPATCH', '/dav/files/f.txt', proppatch(tooMany));
    expect(many.statusCode).toBe(207);
    expect(new Set(statuses(many.body).map((s) => s.split(' ')[1]))).toEqual(new Set(['507']));
    expect(await deadProperties(someone.user.id)).toEqual([]);

    const big = await dav(
      someone.auth,
      'PROPPATCH',
      '/dav/files/f.txt',
      proppatch([
        ['small', 'x'],
        ['large', 'v'.repeat(16 * 1024 + 1)],
      ]),
    );
    expect(statuses(big.body).sort()).toEqual(['large 507', 'small 424']);
    expect(await deadProperties(someone.user.id)).toEqual([]);

    // Four of 15 KiB fit; a fifth would pass 64 KiB, whether it comes alone or with the others.
    const quarter = (i: number): [string, string] => [`q${i}`, 'v'.repeat(15 * 1024)];
    const four = await dav(
      someone.auth,
      'PROPPATCH',
      '/dav/files/f.txt',
      proppatch([0, 1, 2, 3].map(quarter)),
    );
    expect(statuses(four.body)).toEqual(['q0 200', 'q1 200', 'q2 200', 'q3 200']);
    const fifth = await dav(someone.auth, 'PROPPATCH', '/dav/files/f.txt', proppatch([quarter(4)]));
    expect(statuses(fifth.body)).toEqual(['q4 507']);
    expect((await deadProperties(someone.user.id)).map((p) => p.name)).toEqual(['q0', 'q1', 'q2', 'q3']);
    // Replacing a property counts its new value, not both.
    const replaced = await dav(someone.auth, 'PROPPATCH', '/dav/files/f.txt', proppatch([quarter(3)]));
    expect(statuses(replaced.body)).toEqual(['q3 200']);
    const swapped = await dav(
      someone.auth,
      'PROPPATCH',
      '/dav/files/f.txt',
      `<D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:z"><D:remove><D:prop><Z:q3/></D:prop></D:remove><D:set><D:prop><Z:q4>${'v'.repeat(15 * 1024)}</Z:q4></D:prop></D:set></D:propertyupdate>`,
    );
    expect(statuses(swapped.body).sort()).toEqual(['q3 200', 'q4 200']);
  });

  it("counts dead properties in the owner's usage: set, replaced, removed, copied and deleted", async () => {
    const someone = await person();
    expect((await dav(someone.auth, 'MKCOL', '/dav/files/Box')).statusCode).toBe(201);
    expect((await dav(someone.auth, 'PUT', '/dav/files/Box/f.txt', 'hello')).statusCode).toBe(201);
    const start = await usage(someone.user.id);
    expect(start).toEqual({ counted: 5, shown: 5 });
    const value = 'é'.repeat(5000);
    await dav(someone.auth, 'PROPPATCH', '/dav/files/Box/f.txt', proppatch([['colour', value]]));
    await dav(someone.auth, 'PROPPATCH', '/dav/files/Box/', proppatch([['label', 'box']]));
    const withProps = 5 + bytesOf('colour', value) + bytesOf('label', 'box');
    expect(await usage(someone.user.id)).toEqual({ counted: withProps, shown: withProps });

    await dav(someone.auth, 'PROPPATCH', '/dav/files/Box/f.txt', proppatch([['colour', 'red']]));
    const replaced = 5 + bytesOf('colour', 'red') + bytesOf('label', 'box');
    expect((await usage(someone.user.id)).counted).toBe(replaced);

    const copied = await dav(someone.auth, 'COPY', '/dav/files/Box/', undefined, {
      destination: 'http://localhost/dav/files/Box2/',
      host: 'localhost',
    });
    expect(copied.statusCode).toBe(201);
    expect((await usage(someone.user.id)).counted).toBe(replaced * 2);

    await dav(someone.auth, 'PROPPATCH', '/dav/files/Box2/', remove(['label']));
    expect((await usage(someone.user.id)).counted).toBe(replaced * 2 - bytesOf('label', 'box'));
    // Deleted for good (not to the trash): the items go, and their properties with them.
    await t.deps.database.db.deleteFrom('items').where('user_id', '=', someone.user.id).execute();
    expect(await usage(someone.user.id)).toEqual({ counted: 0, shown: 0 });
  });

  it('shows dead properties under others on the storage page, so the categories add up to the bytes used', async () => {
    const someone = await person();
    expect((await dav(someone.auth, 'MKCOL', '/dav/files/Box')).statusCode).toBe(201);
    expect((await dav(someone.auth, 'PUT', '/dav/files/Box/f.txt', 'hello')).statusCode).toBe(201);
    const value = 'é'.repeat(3000);
    await dav(someone.auth, 'PROPPATCH', '/dav/files/Box/f.txt', proppatch([['colour', value]]));
    await dav(someone.auth, 'PROPPATCH', '/dav/files/Box/', proppatch([['label', 'box']]));
    const properties = bytesOf('colour', value) + bytesOf('label', 'box');
    expect((await usage(someone.user.id)).counted).toBe(5 + properties);

    const { agent } = await signedInAgent(t.app, someone.user);
    const page = StorageUsage.parse((await agent.get('/api/user/storage')).json()).data;
    expect(page.used).toBe(5 + properties);
    const used = Object.fromEntries(page.categories.map((c) => [c.category, c.used]));
    expect(used).toMatchObject({ documents: 5, others: properties, images: 0, videos: 0, audios: 0 });
    const stored = page.categories.filter((c) => c.category !== 'empty');
    expect(stored.reduce((sum, c) => sum + c.used, 0)).toBe(page.used);
    expect(page.categories.find((c) => c.category === 'empty')?.used).toBe(page.capacity! - page.used);

    const admin = await signedInAgent(t.app, (await createUser(t.deps, { role: 'admin' })).user);
    const detail = AdminUserDetail.parse(
      (await admin.agent.get(`/api/admin/users/${someone.user.id}`)).json(),
    );
    expect(detail.meta.storage.used).toBe(5 + properties);
    expect(detail.meta.storage.categories.reduce((sum, c) => sum + c.used, 0)).toBe(5 + properties);
  });

  it('refuses dead properties past the quota (507) and a copy whose properties would pass it', async () => {
    const small = await person({ storageCapacity: 20_000 });
    expect((await dav(small.auth, 'PUT', '/dav/files/f.txt', 'v'.repeat(5_000))).statusCode).toBe(201);
    const fits = await dav(
      small.auth,
      'PROPPATCH',
      '/dav/files/f.txt',
      proppatch([['a', 'v'.repeat(9_000)]]),
    );
    expect(statuses(fits.body)).toEqual(['a 200']);
    const over = await dav(
      small.auth,
      'PROPPATCH',
      '/dav/files/f.txt',
      proppatch([['b', 'v'.repeat(9_000)]]),
    );
    expect(statuses(over.body)).toEqual(['b 507']);
    expect((await deadProperties(small.user.id)).map((p) => p.name)).toEqual(['a']);
    // The file's 5,000 bytes would fit; with its 9,000 bytes of properties the copy does not.
    const copy = await dav(small.auth, 'COPY', '/dav/files/f.txt', undefined, {
      destination: 'http://localhost/dav/files/g.txt',
      host: 'localhost',
    });
    expect(copy.statusCode).toBe(507);
    expect((await usage(small.user.id)).counted).toBe(5_000 + bytesOf('a', 'v'.repeat(9_000)));
  });

  it('leaves the file a refused COPY would have overwritten where it was', async () => {
    const small = await person({ storageCapacity: 10_000 });
    expect((await dav(small.auth, 'PUT', '/dav/files/big.txt', 'b'.repeat(6_000))).statusCode).toBe(201);
    expect((await dav(small.auth, 'PUT', '/dav/files/kept.txt', 'k'.repeat(1_000))).statusCode).toBe(201);
    const copy = await dav(small.auth, 'COPY', '/dav/files/big.txt', undefined, {
      destination: 'http://localhost/dav/files/kept.txt',
      host: 'localhost',
    });
    expect(copy.statusCode).toBe(507);
    expect((await dav(small.auth, 'GET', '/dav/files/kept.txt')).body).toBe('k'.repeat(1_000));
  });

  it(
    'streams the multistatus of a PROPFIND, listing every member of a big folder with its properties',
    { timeout: 120_000 },
    async () => {
      const someone = await person();
      expect((await dav(someone.auth, 'MKCOL', '/dav/files/Big')).statusCode).toBe(201);
      const count = 260;
      for (let i = 0; i < count; i++)
        expect(
          (await dav(someone.auth, 'MKCOL', `/dav/files/Big/m${String(i).padStart(3, '0')}`)).statusCode,
        ).toBe(201);
      for (const i of [0, 150, 259])
        await dav(
          someone.auth,
          'PROPPATCH',
          `/dav/files/Big/m${String(i).padStart(3, '0')}/`,
          proppatch([['tag', `t${i}`]]),
        );
      // The same folder at Nextcloud's addresses, where the clients also ask for the sync properties.
      for (const base of [
        '/dav/files',
        `/remote.php/dav/files/${someone.user.email}`,
        '/remote.php/webdav',
      ]) {
        const listing = await dav(someone.auth, 'PROPFIND', `${base}/Big/`, ALLPROP, { depth: '1' });
        expect(listing.statusCode, base).toBe(207);
        // Written as it is built: no length is known when the answer starts.
        expect(listing.headers['content-length']).toBeUndefined();
        expect(listing.body.match(/<D:response>/g)).toHaveLength(count + 1);
        expect(listing.body.endsWith('</D:multistatus>')).toBe(true);
        for (const i of [0, 150, 259])
          expect(listing.body).toContain(
            `<D:href>${base}/Big/m${String(i).padStart(3, '0')}/</D:href><D:propstat><D:prop>`,
          );
        expect(listing.body.match(/<p\d+:tag xmlns:p\d+="urn:z">t(\d+)<\/p\d+:tag>/g)).toHaveLength(3);
      }
      const synced = await dav(someone.auth, 'PROPFIND', '/remote.php/webdav/Big/', SYNC_PROPFIND, {
        depth: '1',
      });
      expect(synced.headers['content-length']).toBeUndefined();
      expect(synced.body.match(/<oc:fileid>/g)).toHaveLength(count + 1);
    },
  );

  describe('locks in a team folder', () => {
    let boss: { user: UserRow; auth: string };
    const teamFolder = async (name: string) => {
      const created = await t.deps.teams.create(boss.user.id, { name, invitations: [] });
      return created.data.id;
    };
    const member = async (folderId: string, someone?: { user: UserRow; auth: string }) => {
      const joining = someone ?? (await person());
      await t.deps.database.db
        .insertInto('team_members')
        .values({
          folder_id: folderId,
          user_id: joining.user.id,
          permission: 'can_edit',
          created_at: new Date().toISOString(),
        })
        .execute();
      return joining;
    };
    /** A day-long exclusive lock, as a client that went away leaves it; its token. */
    const lock = async (auth: string, url: string) => {
      const answer = await dav(auth, 'LOCK', url, lockinfo('me'), { timeout: 'Second-86400' });
      expect(answer.statusCode, answer.body).toBe(201);
      return /^<(.+)>$/.exec(answer.headers['lock-token'] as string)![1]!;
    };
    const locksOf = async (userId: string) =>
      (
        await t.deps.database.db
          .selectFrom('dav_locks')
          .select('path')
          .where('principal_id', '=', userId)
          .orderBy('path')
          .execute()
      ).map((l) => l.path);

    beforeAll(async () => {
      boss = await person();
    });

    it("lets the tree's owner break a member's lock with the token lock discovery shows, and no one else", async () => {
      const folder = await teamFolder('Desk');
      const holder = await member(folder);
      const other = await member(folder);
      const token = await lock(holder.auth, '/dav/shared/Desk/plan.txt');
      expect((await dav(boss.auth, 'PUT', '/dav/files/Desk/plan.txt', 'mine')).statusCode).toBe(423);

      const discovery = await dav(
        boss.auth,
        'PROPFIND',
        '/dav/files/Desk/plan.txt',
        '<D:propfind xmlns:D="DAV:"><D:prop><D:lockdiscovery/></D:prop></D:propfind>',
        { depth: '0' },
      );
      expect(discovery.body).toContain(`<D:locktoken><D:href>${token}</D:href></D:locktoken>`);
      // Another member may not end a lock that is not theirs.
      expect(
        (
          await dav(other.auth, 'UNLOCK', '/dav/shared/Desk/plan.txt', undefined, {
            'lock-token': `<${token}>`,
          })
        ).statusCode,
      ).toBe(403);
      expect(
        (
          await dav(boss.auth, 'UNLOCK', '/dav/files/Desk/plan.txt', undefined, {
            'lock-token': `<${token}>`,
          })
        ).statusCode,
      ).toBe(204);
      expect((await dav(boss.auth, 'PUT', '/dav/files/Desk/plan.txt', 'mine')).statusCode).toBe(204);
      expect(await locksOf(holder.user.id)).toEqual([]);
    });

    it("ends a member's locks in the team folder they are removed from or leave, and only there", async () => {
      const first = await teamFolder('Bench');
      const second = await teamFolder('Loft');
      const removed = await member(first);
      await member(second, removed);
      const leaving = await member(first);
      await lock(removed.auth, '/dav/shared/Bench/a.txt');
      await lock(removed.auth, '/dav/shared/Loft/b.txt');
      await lock(leaving.auth, '/dav/shared/Bench/c.txt');
      await lock(boss.auth, '/dav/files/Bench/d.txt');

      await t.deps.teams.update(boss.user.id, first, { remove_members: [removed.user.id] });
      expect(await locksOf(removed.user.id)).toEqual(['/Loft/b.txt']);
      expect((await dav(boss.auth, 'PUT', '/dav/files/Bench/a.txt', 'mine')).statusCode).toBe(204);

      await t.deps.teams.leave(leaving.user.id, first);
      expect(await locksOf(leaving.user.id)).toEqual([]);
      expect(await locksOf(boss.user.id)).toEqual(['/Bench/d.txt']);

      // Dissolving the team ends every member's locks in it; the owner's stay.
      await t.deps.teams.dissolve(boss.user.id, second);
      expect(await locksOf(removed.user.id)).toEqual([]);
      expect(await locksOf(boss.user.id)).toEqual(['/Bench/d.txt']);
    });
  });

  it('refuses to delete the root of a tree (403), which the fuzzer found answered 500', async () => {
    expect((await dav(owner.auth, 'DELETE', '/dav/files/')).statusCode).toBe(403);
    expect((await dav(owner.auth, 'GET', '/dav/files/target.txt')).body).toBe('target');
  });

  it('refuses a deeply nested PROPPATCH before parsing it, and changes nothing', async () => {
    const nested = (levels: number) => proppatch([['deep', '<a>'.repeat(levels) + '</a>'.repeat(levels)]]);
    expect((await dav(owner.auth, 'PROPPATCH', '/dav/files/target.txt', nested(1000))).statusCode).toBe(400);
    // The issue's body: 140,000 levels in about a megabyte.
    const started = performance.now();
    const huge = await dav(owner.auth, 'PROPPATCH', '/dav/files/target.txt', nested(140_000));
    expect([400, 413]).toContain(huge.statusCode);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(await deadProperties(owner.user.id)).toEqual([]);
    expect((await dav(owner.auth, 'PROPPATCH', '/dav/files/target.txt', nested(8))).statusCode).toBe(207);
    await dav(
      owner.auth,
      'PROPPATCH',
      '/dav/files/target.txt',
      '<D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:z"><D:remove><D:prop><Z:deep/></D:prop></D:remove></D:propertyupdate>',
    );
  });

  it('takes PROPFIND and LOCK bodies of a few kilobytes only (413), and no document type (400)', async () => {
    const manyNames = `<D:propfind xmlns:D="DAV:" xmlns:Z="urn:z"><D:prop>${'<Z:name/>'.repeat(2500)}</D:prop></D:propfind>`;
    expect(manyNames.length).toBeGreaterThan(16 * 1024);
    const found = await dav(owner.auth, 'PROPFIND', '/dav/files/target.txt', manyNames, { depth: '0' });
    expect(found.statusCode).toBe(413);
    const lock = await dav(owner.auth, 'LOCK', '/dav/files/target.txt', lockinfo('x'.repeat(20_000)));
    expect(lock.statusCode).toBe(413);
    expect(
      await t.deps.database.db
        .selectFrom('dav_locks')
        .selectAll()
        .where('principal_id', '=', owner.user.id)
        .execute(),
    ).toEqual([]);
    const entities = await dav(
      owner.auth,
      'PROPFIND',
      '/dav/files/target.txt',
      `<!DOCTYPE d [<!ENTITY a "${'a'.repeat(100)}">]>${ALLPROP}`,
      { depth: '0' },
    );
    expect(entities.statusCode).toBe(400);
    expect(
      (await dav(owner.auth, 'PROPFIND', '/dav/files/target.txt', ALLPROP, { depth: '0' })).statusCode,
    ).toBe(207);
  });

  it('keeps a lock’s owner note short (413) and an owner’s locks bounded in number (507)', async () => {
    const person = await personWithFile();
    const tooLong = await dav(person.auth, 'LOCK', '/dav/files/target.txt', lockinfo('n'.repeat(2000)));
    expect(tooLong.statusCode).toBe(413);
    // Shared locks, each with an owner note, until the tree holds as many as it keeps.
    const at = new Date(Date.now() + 3_600_000).toISOString();
    await t.deps.database.db
      .insertInto('dav_locks')
      .values(
        Array.from({ length: LOCKS_PER_OWNER_MAX }, (_, i) => ({
          token: `opaquelocktoken:${randomUUID()}`,
          owner_id: person.user.id,
          path: `/target.txt`,
          depth: '0' as const,
          scope: 'shared' as const,
          principal_id: person.user.id,
          owner_xml: `note ${i}`,
          timeout_seconds: 3600,
          expires_at: at,
        })),
      )
      .execute();
    const shared = lockinfo('one more').replace('<D:exclusive/>', '<D:shared/>');
    expect((await dav(person.auth, 'LOCK', '/dav/files/target.txt', shared)).statusCode).toBe(507);
    const kept = await t.deps.database.db
      .selectFrom('dav_locks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('owner_id', '=', person.user.id)
      .executeTakeFirstOrThrow();
    expect(Number(kept.n)).toBe(LOCKS_PER_OWNER_MAX);
  });

  it('takes a PROPPATCH body of a bounded size (413 past it), and changes nothing', async () => {
    const body = proppatch([['big', 'v'.repeat(300 * 1024)]]);
    expect((await dav(owner.auth, 'PROPPATCH', '/dav/files/target.txt', body)).statusCode).toBe(413);
    expect(await deadProperties(owner.user.id)).toEqual([]);
  });
});
