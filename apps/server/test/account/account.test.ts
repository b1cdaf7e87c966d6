import {
  LOGIN_MAX_FAILURES_PER_ACCOUNT,
  AVATAR_MAX_BYTES,
  AVATAR_SIZES,
  TeamFolderDocument,
  UserResource,
  type AvatarSize,
} from '@atelier/contracts';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { UserRow } from '../../src/db/schema';
import { storagePurgeJob } from '../../src/modules/files/files.jobs';
import { UsersRepository } from '../../src/modules/users/users.repository';
import { SESSION_COOKIE } from '../../src/plugins/session.plugin';
import { TestAgent } from '../support/agent';
import { DEFAULT_PASSWORD, createSession, createUser, signedInAgent } from '../support/factories';
import { killedWhileFiling } from '../support/killed-while-filing';
import {
  createFilesTestApp,
  filesMatrix,
  multipartBody,
  uploaded,
  type FilesTestApp,
} from '../files/files-harness';

const SIZES = Object.keys(AVATAR_SIZES) as AvatarSize[];

const blank = (format: 'png' | 'jpeg' | 'webp', width = 300, height = 200) =>
  sharp({ create: { width, height, channels: 3, background: '#3366cc' } })
    .toFormat(format)
    .toBuffer();

/** A camera's jpeg: EXIF with an owner's name and a GPS position. */
const photoWithExif = () =>
  sharp({ create: { width: 400, height: 300, channels: 3, background: '#aa5500' } })
    .jpeg()
    .withExif({
      IFD0: { Artist: 'Secret Photographer', ImageDescription: 'at home' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '48/1 51/1 24/1',
        GPSLongitudeRef: 'E',
        GPSLongitude: '2/1 21/1 3/1',
      },
    })
    .toBuffer();

/** A valid png whose header declares 100,000 x 100,000 pixels: a decompression bomb's shape. */
async function hugeDeclaredPng(): Promise<Buffer> {
  const png = Buffer.from(await blank('png', 4, 4));
  // The IHDR chunk follows the 8-byte signature: length, type, width, height, ..., then its CRC.
  png.writeUInt32BE(100_000, 16);
  png.writeUInt32BE(100_000, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

const avatarForm = (data: Buffer, filename = 'me.png') => multipartBody([{ file: 'avatar', filename, data }]);

for (const [index, [database, storage]] of filesMatrix.entries()) {
  describe(`account: avatar and password [${database}, ${storage}]`, () => {
    let t: FilesTestApp;
    let agent: TestAgent;
    let user: UserRow;

    beforeAll(async () => {
      t = await createFilesTestApp(database, storage);
      ({ agent, user } = await signedInAgent(t.app));
    });
    afterAll(() => t.close());

    const upload = (data: Buffer, filename?: string) => {
      const { payload, headers } = avatarForm(data, filename);
      return agent.post('/api/user/avatar', payload, { headers });
    };
    const avatarOf = async () =>
      UserResource.parse((await agent.get('/api/user')).json()).data.attributes.avatar;
    const avatarObjects = async () => (await t.storedObjects()).filter((key) => /-(xs|sm|md)$/.test(key));

    /** Each size read back through its URL: a square webp of its side, without any metadata. */
    async function expectServedSizes(avatar: Record<AvatarSize, string | null>): Promise<void> {
      for (const size of SIZES) {
        const answer = await agent.get(avatar[size]!);
        expect(answer.statusCode).toBe(200);
        expect(answer.headers['content-type']).toBe('image/webp');
        expect(answer.headers['cache-control']).toContain('immutable');
        const meta = await sharp(answer.rawPayload).metadata();
        expect(meta).toMatchObject({ format: 'webp', width: AVATAR_SIZES[size], height: AVATAR_SIZES[size] });
        expect(meta.exif).toBeUndefined();
        expect(meta.xmp).toBeUndefined();
        expect(answer.rawPayload.includes('Secret Photographer')).toBe(false);
      }
    }

    it('re-encodes png, jpeg and webp into square sizes, each upload under new URLs', async () => {
      const seen = new Set<string>();
      for (const image of [await blank('png'), await blank('jpeg', 150, 400), await blank('webp')]) {
        const answer = await upload(image, 'photo.bin');
        expect(answer.statusCode, answer.body).toBe(200);
        const { avatar } = UserResource.parse(answer.json()).data.attributes;
        expect(avatar.md).not.toBe(null);
        expect(seen.has(avatar.md!)).toBe(false);
        seen.add(avatar.md!);
        await expectServedSizes(avatar);
        // The previous upload's objects went with it.
        expect(await avatarObjects()).toHaveLength(SIZES.length);
      }
    });

    it("takes the description's multipart image update: name, the field itself and the patch marker", async () => {
      const image = await blank('png');
      const imageUpdate = (parts: Parameters<typeof multipartBody>[0]) => {
        const { payload, headers } = multipartBody(parts);
        return agent.post('/api/user/settings', payload, { headers });
      };
      const avatarFile = { file: 'avatar', filename: 'me.png', data: image };
      const before = await avatarOf();

      // Without the marker, with another one, or naming another setting: refused, nothing kept.
      for (const [parts, status, field] of [
        [[{ field: 'name', value: 'avatar' }, avatarFile], 405, null],
        [[{ field: 'name', value: 'avatar' }, avatarFile, { field: '_method', value: 'delete' }], 405, null],
        [
          [{ field: 'name', value: 'theme_mode' }, avatarFile, { field: '_method', value: 'patch' }],
          422,
          'name',
        ],
        [
          [
            { field: 'name', value: 'avatar' },
            { field: '_method', value: 'patch' },
          ],
          422,
          'avatar',
        ],
      ] as const) {
        const answer = await imageUpdate([...parts]);
        expect(answer.statusCode, answer.body).toBe(status);
        if (field) expect(answer.json().errors?.[field]).toHaveLength(1);
      }
      expect(await avatarOf()).toEqual(before);

      // The marker may come before or after the image, as a form's fields arrive in any order.
      for (const parts of [
        [{ field: 'name', value: 'avatar' }, avatarFile, { field: '_method', value: 'patch' }],
        [{ field: '_method', value: 'PATCH' }, { field: 'name', value: 'avatar' }, avatarFile],
      ]) {
        const answer = await imageUpdate(parts);
        expect(answer.statusCode, answer.body).toBe(200);
        const { avatar } = UserResource.parse(answer.json()).data.attributes;
        expect(avatar).toEqual(await avatarOf());
        await expectServedSizes(avatar);
      }

      // The same address still takes the JSON settings with their marker.
      const setting = await agent.post('/api/user/settings', {
        name: 'theme_mode',
        value: 'dark',
        _method: 'patch',
      });
      expect(setting.statusCode, setting.body).toBe(204);
      const invalid = await agent.post('/api/user/settings', {
        name: 'theme_mode',
        value: 'neon',
        _method: 'patch',
      });
      expect(invalid.statusCode, invalid.body).toBe(422);
    });

    it('strips EXIF and GPS from a photo', async () => {
      const photo = await photoWithExif();
      expect((await sharp(photo).metadata()).exif).toBeDefined();
      expect((await upload(photo, 'camera.jpg')).statusCode).toBe(200);
      await expectServedSizes(await avatarOf());
    });

    it('refuses svg, text named .png, an oversized file and a huge declared size, storing nothing', async () => {
      const before = { avatar: await avatarOf(), objects: (await t.storedObjects()).sort() };
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
      for (const [data, name, status] of [
        [svg, 'me.svg', 422],
        [Buffer.from('just some text, not an image'), 'me.png', 422],
        [await hugeDeclaredPng(), 'bomb.png', 422],
        [Buffer.concat([await blank('png'), Buffer.alloc(AVATAR_MAX_BYTES)]), 'big.png', 413],
      ] as const) {
        const answer = await upload(data, name);
        expect(answer.statusCode, `${name}: ${answer.body}`).toBe(status);
        expect(answer.json().errors?.avatar).toHaveLength(1);
      }
      expect(await avatarOf()).toEqual(before.avatar);
      expect((await t.storedObjects()).sort()).toEqual(before.objects);
    });

    it('serves only current avatars: a removed one, an unknown key and a file’s key are 404', async () => {
      await uploaded(agent, await blank('png'), { name: 'private.png' });
      const [fileKey] = (await t.storedObjects()).filter((key) => !/-(xs|sm|md)$/.test(key));
      expect(fileKey).toBeDefined();
      const { key } = /\/api\/avatars\/(?<key>\w+)\//.exec((await avatarOf()).md!)!.groups!;

      const removed = await agent.delete('/api/user/avatar/current');
      expect(removed.statusCode, removed.body).toBe(200);
      expect(UserResource.parse(removed.json()).data.attributes.avatar).toEqual({
        xs: null,
        sm: null,
        md: null,
      });
      expect(await avatarObjects()).toEqual([]);
      for (const missing of [key, 'f'.repeat(32), fileKey!.split('/').pop()!])
        expect((await agent.get(`/api/avatars/${missing}/md`)).statusCode).toBe(404);
      // Removing again changes nothing.
      expect((await agent.delete('/api/user/avatar/current')).statusCode).toBe(200);
    });

    it('leaves no sizes behind when its process is killed after storing them, before naming them', async () => {
      expect((await upload(await blank('png'))).statusCode).toBe(200);
      const before = { avatar: await avatarOf(), objects: (await avatarObjects()).sort() };
      const killed = await killedWhileFiling(t, {
        counts: (_body, options) => options?.contentType === 'image/webp',
      });
      // The process dies as the user's row is being changed to name the new sizes.
      const naming = vi.spyOn(UsersRepository.prototype, 'update').mockRejectedValue(new Error('killed'));
      try {
        await expect(t.deps.avatars.replace(user, await blank('jpeg'))).rejects.toThrow('killed');
      } finally {
        naming.mockRestore();
        killed.restore();
      }
      expect(killed.written).toHaveLength(SIZES.length);
      expect(await killed.leftAfterSweep()).toEqual([]);
      // The avatar the user had is still theirs, every size of it.
      expect(await avatarOf()).toEqual(before.avatar);
      expect((await avatarObjects()).sort()).toEqual(before.objects);
      await expectServedSizes(before.avatar);
    });

    it('lets go of the avatar stored when it changes, not of the one the request read (a second tab)', async () => {
      expect((await upload(await blank('png'))).statusCode).toBe(200);
      const read = (await t.deps.users.findById(user.id))!;
      // Two uploads that both read the account before either changed it.
      await t.deps.avatars.replace(read, await blank('jpeg'));
      await t.deps.avatars.replace(read, await blank('webp'));
      expect(await avatarObjects()).toHaveLength(SIZES.length);
      await expectServedSizes(await avatarOf());
      await t.deps.avatars.remove(read);
      expect(await avatarObjects()).toEqual([]);
    });

    it('deletes the sizes it replaced or removed by the purge job when storage refuses at first', async () => {
      expect((await upload(await blank('png'))).statusCode).toBe(200);
      const store = await t.deps.storage.current();
      const refusing = vi.spyOn(store, 'deleteMany').mockRejectedValue(new Error('storage away'));
      try {
        const replaced = await upload(await blank('jpeg'));
        expect(replaced.statusCode, replaced.body).toBe(200);
        expect((await agent.delete('/api/user/avatar/current')).statusCode).toBe(200);
      } finally {
        refusing.mockRestore();
      }
      // The changes stand, and each size they let go is recorded for the job.
      expect(await avatarOf()).toEqual({ xs: null, sm: null, md: null });
      expect(await avatarObjects()).toHaveLength(2 * SIZES.length);
      const worker = t.deps.jobs.startWorker({ definitions: [storagePurgeJob], services: t.deps });
      try {
        await expect.poll(avatarObjects, { timeout: 15_000 }).toEqual([]);
      } finally {
        await worker.close();
      }
    });

    it('shows the avatar wherever its person is shown: share page, upload request page, team folder', async () => {
      expect((await upload(await blank('png'))).statusCode).toBe(200);
      const avatar = await avatarOf();
      const folder = (await agent.post('/api/create-folder', { name: 'Shared' })).json().data.id;

      const share = await agent.post('/api/share', { id: folder, type: 'folder', permission: 'visitor' });
      expect(share.statusCode, share.body).toBe(201);
      const visitor = new TestAgent(t.app);
      const page = await visitor.get(`/api/sharing/${share.json().data.id}`);
      expect(page.json().data.attributes.owner.avatar).toEqual(avatar);

      const request = await agent.post('/api/file-request', { folder_id: folder });
      expect(request.statusCode, request.body).toBe(201);
      const outsider = await visitor.get(`/api/file-request/${request.json().data.id}`);
      expect(outsider.json().data.attributes.owner.avatar).toEqual(avatar);

      const team = await agent.post('/api/teams/folders', { name: 'Team' });
      expect(team.statusCode, team.body).toBe(201);
      expect(TeamFolderDocument.parse(team.json()).meta.teamFolder.owner.avatar).toEqual(avatar);
    });

    it('changes the password with the current one and ends every other session', async () => {
      const other = new TestAgent(t.app);
      other.setCookie(SESSION_COOKIE, await createSession(t.deps, user));
      const change = (current: string) =>
        agent.post('/api/user/password', {
          current_password: current,
          password: 'a brand new password',
          password_confirmation: 'a brand new password',
        });

      const wrong = await change('not my password');
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json().errors.current_password).toHaveLength(1);
      expect((await other.get('/api/user')).statusCode).toBe(200);

      expect((await change(DEFAULT_PASSWORD)).statusCode).toBe(204);
      expect((await agent.get('/api/user')).statusCode).toBe(200);
      expect((await other.get('/api/user')).statusCode).toBe(401);
      const login = (password: string) =>
        new TestAgent(t.app).post('/api/login', { email: user.email, password });
      expect((await login(DEFAULT_PASSWORD)).statusCode).toBe(422);
      expect((await login('a brand new password')).statusCode).toBe(200);
    });

    it('changes the password while strangers’ guesses fill the account’s window', async () => {
      const { user: owner } = await createUser(t.deps);
      const { agent: signedIn } = await signedInAgent(t.app, owner);
      // Guesses at the account from many addresses, two each, fill its window for the quarter hour.
      for (let i = 0; i < LOGIN_MAX_FAILURES_PER_ACCOUNT; i += 1) {
        const guess = await new TestAgent(t.app, `203.0.113.${100 + (i >> 1)}`).post('/api/login', {
          email: owner.email,
          password: `guess ${i}`,
        });
        expect(guess.statusCode).toBe(422);
      }
      const locked = await new TestAgent(t.app, '203.0.113.200').post('/api/login', {
        email: owner.email,
        password: DEFAULT_PASSWORD,
      });
      expect(locked.statusCode).toBe(429);
      // The person, signed in, still proves their password and changes it.
      const change = await signedIn.post('/api/user/password', {
        current_password: DEFAULT_PASSWORD,
        password: 'a brand new password',
        password_confirmation: 'a brand new password',
      });
      expect(change.statusCode, change.body).toBe(204);
    });

    it('counts wrong current passwords with sign-in’s: the sixth in a minute is 429 on the field', async () => {
      // An address of its own per run: with Redis the address's count outlives the app.
      const guesser = new TestAgent(t.app, `198.51.100.${10 + index}`);
      guesser.setCookie(SESSION_COOKIE, await createSession(t.deps, (await createUser(t.deps)).user));
      const guess = () =>
        guesser.post('/api/user/password', {
          current_password: 'a guess',
          password: 'taken over',
          password_confirmation: 'taken over',
        });
      for (let i = 0; i < 5; i += 1) expect((await guess()).statusCode).toBe(422);
      const throttled = await guess();
      expect(throttled.statusCode).toBe(429);
      expect(throttled.json().errors.current_password).toHaveLength(1);
    });
  });
}
