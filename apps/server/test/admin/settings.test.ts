import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PublicConfig, ServerStatus, SETTINGS_IMAGE_MAX_BYTES } from '@atelier/contracts';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app';
import { openPreparedDatabase } from '../../src/db/prepare';
import type { JobWorker } from '../../src/jobs/job-queue';
import { authJobDefinitions } from '../../src/modules/auth/auth.jobs';
import { storagePurgeJob } from '../../src/modules/files/files.jobs';
import { SettingsRepository } from '../../src/modules/settings/settings.repository';
import { parseEnv } from '../../src/env';
import { chunkRequest, multipartBody, uploaded } from '../files/files-harness';
import { startS3Server } from '../storage/s3-server';
import { waitFor } from '../jobs/support/wait-for';
import type { TestAgent } from '../support/agent';
import { createPostgresDatabase, requiredTestDatabaseUrl, type ScratchDatabase } from '../support/databases';
import { describeEachDatabase } from '../support/each-database';
import { createUser, signedInAgent } from '../support/factories';
import { killedWhileFiling } from '../support/killed-while-filing';
import { deleteRedisKeys, scratchRedisPrefix } from '../support/redis-scratch';
import { SmtpPeer } from '../support/smtp-peer';
import { createTestApp, type TestApp } from '../support/test-app';

const image = (format: 'png' | 'jpeg' | 'webp', width = 600, height = 400) =>
  sharp({ create: { width, height, channels: 4, background: '#3366ccff' } })
    .toFormat(format)
    .toBuffer();

const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><script>alert(1)</script><rect width="64" height="64"/></svg>',
);

const imageForm = (name: string, data: Buffer, filename = 'logo.png') =>
  multipartBody([
    { field: 'name', value: name },
    { file: 'image', filename, data },
  ]);

describeEachDatabase('admin settings', (database) => {
  let t: TestApp;
  let admin: TestAgent;
  let adminId: string;
  let member: TestAgent;

  beforeAll(async () => {
    t = await createTestApp({ database });
    const { user } = await createUser(t.deps, { role: 'admin' });
    adminId = user.id;
    ({ agent: admin } = await signedInAgent(t.app, user));
    ({ agent: member } = await signedInAgent(t.app));
  });
  afterAll(() => t.close());

  const config = async () => PublicConfig.parse((await admin.get('/api/config')).json());
  const save = (settings: Record<string, unknown>) => admin.post('/api/admin/settings', { settings });
  const stored = async (names: string[]) => {
    const all = await t.deps.settings.all();
    return Object.fromEntries(names.map((n) => [n, (all as unknown as Record<string, unknown>)[n]]));
  };

  it('is for admins only', async () => {
    expect((await member.get('/api/admin/settings')).statusCode).toBe(403);
    expect((await member.post('/api/admin/settings', { settings: { app_title: 'Mine' } })).statusCode).toBe(
      403,
    );
    expect((await member.get('/api/admin/server-status')).statusCode).toBe(403);
    expect((await t.deps.settings.get('app_title')) === 'Mine').toBe(false);
  });

  it('changes the title, and GET /api/config answers it at once', async () => {
    expect((await config()).app.name).not.toBe('Studio North');
    expect((await save({ app_title: '  Studio North ', app_description: 'Our files' })).statusCode).toBe(204);
    expect((await config()).app).toMatchObject({ name: 'Studio North', description: 'Our files' });
    expect((await admin.get('/api/admin/settings?group=appearance')).json()).toMatchObject({
      app_title: 'Studio North',
      app_description: 'Our files',
    });
  });

  it('refuses an unknown name or a bad value with a 422 naming each, and changes nothing', async () => {
    const before = await stored(['app_title', 'chunk_size', 'registration', 'installed']);
    const answer = await save({
      app_title: 'Half applied',
      chunk_size: 10,
      registration: 'yes',
      installed: false,
      no_such_setting: 1,
      mimetypes_blacklist: ['image/svg+xml', 'not a type'],
    });
    expect(answer.statusCode).toBe(422);
    const { errors } = answer.json() as { errors: Record<string, string[]> };
    expect(Object.keys(errors).sort()).toEqual(
      ['chunk_size', 'installed', 'mimetypes_blacklist.1', 'no_such_setting', 'registration'].sort(),
    );
    expect(errors.no_such_setting![0]).toBe('There is no setting of this name.');
    expect(errors['mimetypes_blacklist.1']![0]).toMatch(/MIME types/);
    expect(await stored(['app_title', 'chunk_size', 'registration', 'installed'])).toEqual(before);
  });

  describe('who gets the file manager', () => {
    afterEach(() => t.deps.settings.set({ file_manager_cutoff: '2024-03-19', file_manager_for_all: false }));
    const dateStatus = async (agent: TestAgent) =>
      (await agent.get('/api/user')).json().data.attributes.dateStatus;

    it("follows the cutoff day and the choice for every account at once, in the user resource and the admin's list", async () => {
      const older = await signedInAgent(
        t.app,
        (await createUser(t.deps, { createdAt: '2025-01-09T23:00:00.000Z' })).user,
      );
      const newer = await signedInAgent(
        t.app,
        (await createUser(t.deps, { createdAt: '2025-01-10T08:00:00.000Z' })).user,
      );
      expect(await admin.get('/api/admin/settings?group=others').then((r) => r.json())).toMatchObject({
        file_manager_cutoff: '2024-03-19',
        file_manager_for_all: false,
      });
      expect([await dateStatus(older.agent), await dateStatus(newer.agent)]).toEqual([false, false]);

      expect((await save({ file_manager_cutoff: '2025-01-10' })).statusCode).toBe(204);
      expect([await dateStatus(older.agent), await dateStatus(newer.agent)]).toEqual([true, false]);

      expect((await save({ file_manager_for_all: true })).statusCode).toBe(204);
      expect([await dateStatus(older.agent), await dateStatus(newer.agent)]).toEqual([true, true]);
      const listed = (
        await admin.get(`/api/admin/users?search=${encodeURIComponent(newer.user.email)}`)
      ).json();
      expect(listed.data[0].attributes.dateStatus).toBe(true);
    });

    it('refuses a day that does not exist or is no day, and a choice that is not yes or no, naming each', async () => {
      const answer = await save({ file_manager_cutoff: '2025-02-30', file_manager_for_all: 'yes' });
      expect(answer.statusCode).toBe(422);
      expect(Object.keys(answer.json().errors).sort()).toEqual([
        'file_manager_cutoff',
        'file_manager_for_all',
      ]);
      expect((await save({ file_manager_cutoff: 'next week' })).statusCode).toBe(422);
      expect(await stored(['file_manager_cutoff', 'file_manager_for_all'])).toEqual({
        file_manager_cutoff: '2024-03-19',
        file_manager_for_all: false,
      });
    });
  });

  it('takes a default locale only when the language exists', async () => {
    const answer = await save({ locale: 'xx-nowhere' });
    expect(answer.statusCode).toBe(422);
    expect(Object.keys(answer.json().errors)).toEqual(['locale']);
    expect((await config()).locale).toBe('en');
  });

  it('never answers a secret, and keeps it when it is sent back empty', async () => {
    expect(
      (
        await save({
          stripe_secret_key: 'sk_live_TOPSECRET',
          paypal_secret: 'pp-TOPSECRET',
          stripe_public_key: 'pk_live_visible',
        })
      ).statusCode,
    ).toBe(204);
    await t.deps.settings.set({
      s3: {
        region: 'eu',
        bucket: 'b',
        accessKeyId: 'AKIA',
        secretAccessKey: 's3-TOPSECRET',
        forcePathStyle: true,
      },
      smtp_url: 'smtp://user:smtp-TOPSECRET@mail.example.test:587',
      social_providers: [
        {
          name: 'corp',
          kind: 'oidc',
          issuer: 'https://id.example.test',
          client_id: 'app',
          client_secret: 'oidc-TOPSECRET',
          enabled: true,
        },
      ],
    });

    const everything = await admin.get('/api/admin/settings');
    expect(everything.body).not.toMatch(/TOPSECRET/);
    const body = everything.json();
    expect(body).toMatchObject({
      stripe_secret_key: null,
      stripe_secret_key_set: true,
      paypal_secret_set: true,
      paystack_secret_key: null,
      paystack_secret_key_set: false,
      stripe_public_key: 'pk_live_visible',
      smtp_url: null,
      smtp_url_set: true,
      s3: { bucket: 'b', secretAccessKey: null, secretAccessKey_set: true },
      social_providers: [{ name: 'corp', client_secret: null, client_secret_set: true }],
    });
    expect(body).not.toHaveProperty('installed');
    expect(body).not.toHaveProperty('purchase_code');
    expect((await admin.get('/api/config')).body).not.toMatch(/TOPSECRET/);

    // The form sends what it read back: the nulls keep every secret.
    expect(
      (await save({ stripe_secret_key: null, social_providers: body.social_providers })).statusCode,
    ).toBe(204);
    const after = await t.deps.settings.all();
    expect(after.stripe_secret_key).toBe('sk_live_TOPSECRET');
    expect(after.social_providers[0]!.client_secret).toBe('oidc-TOPSECRET');
    // Pointed at another issuer, the stored secret is not sent along: it must be typed again.
    const elsewhere = await save({
      social_providers: [{ ...body.social_providers[0], issuer: 'https://elsewhere.example.test' }],
    });
    expect(elsewhere.statusCode).toBe(422);
    expect(Object.keys(elsewhere.json().errors)).toEqual(['social_providers.0.client_secret']);
    expect((await t.deps.settings.all()).social_providers[0]!.issuer).toBe('https://id.example.test');
    // An empty string clears a secret on purpose.
    expect((await save({ paypal_secret: '' })).statusCode).toBe(204);
    expect(await t.deps.settings.get('paypal_secret')).toBeNull();
  });

  it('refuses a new social provider without its secret, naming the field', async () => {
    const answer = await save({
      social_providers: [{ name: 'fresh', kind: 'github', client_id: 'id', enabled: true }],
    });
    expect(answer.statusCode).toBe(422);
    expect(Object.keys(answer.json().errors)).toEqual(['social_providers.0.client_secret']);
  });

  it('exposes the homepage texts and the ad settings in the config, and nothing more', async () => {
    expect((await config()).adsense).toBeNull();
    const bad = await save({
      adsense_client_id: 'pub-1',
      adsense_slots: { homepage: 'abc', file_browser: null, share_page: null },
    });
    expect(Object.keys(bad.json().errors).sort()).toEqual(['adsense_client_id', 'adsense_slots.homepage']);
    expect(
      (
        await save({
          adsense_client_id: 'ca-pub-1234567890123456',
          adsense_slots: { homepage: '1234567890', file_browser: null, share_page: null },
          homepage_title: 'Files for the studio',
          homepage_description: '',
        })
      ).statusCode,
    ).toBe(204);
    const c = await config();
    expect(c.adsense).toEqual({
      clientId: 'ca-pub-1234567890123456',
      slots: { homepage: '1234567890', file_browser: null, share_page: null },
    });
    expect(c.homepage).toEqual({ title: 'Files for the studio', description: null });
  });

  describe('images', () => {
    const upload = (name: string, data: Buffer, filename?: string) => {
      const { payload, headers } = imageForm(name, data, filename);
      return admin.post('/api/admin/settings/image', payload, { headers });
    };

    it('resizes a logo and a favicon, serves them publicly and puts them in the config', async () => {
      const logo = await upload('app_logo', await image('jpeg', 2000, 1000));
      expect(logo.statusCode).toBe(200);
      const favicon = await upload('app_favicon', await image('webp', 300, 300));
      expect(favicon.statusCode).toBe(200);
      const og = await upload('app_og_image', await image('png', 800, 800));
      const c = await config();
      expect(c.app.logo).toBe(logo.json().url);
      expect(c.app.favicon).toBe(favicon.json().url);
      expect(c.app.og_image).toBe(og.json().url);

      const served = async (url: string) => {
        const answer = await member.get(url);
        expect(answer.statusCode).toBe(200);
        return sharp(answer.rawPayload).metadata();
      };
      expect(await served(c.app.logo!)).toMatchObject({ format: 'png', width: 512, height: 256 });
      expect(await served(c.app.favicon!)).toMatchObject({ format: 'png', width: 32, height: 32 });
      expect(await served(c.app.touch_icon!)).toMatchObject({ format: 'png', width: 180, height: 180 });
      expect(await served(c.app.og_image!)).toMatchObject({ format: 'jpeg', width: 1200, height: 630 });

      // A new logo replaces the old one, whose address is gone with its bytes.
      const next = await upload('app_logo', await image('png', 100, 100));
      expect(next.json().url).not.toBe(logo.json().url);
      expect((await member.get(logo.json().url)).statusCode).toBe(404);
      // Removing it goes back to the built-in mark.
      expect((await save({ app_logo: null })).statusCode).toBe(204);
      expect((await config()).app.logo).toBeNull();
      expect((await member.get(next.json().url)).statusCode).toBe(404);
    });

    it('refuses svg, bytes that are no image, a wrong name and an image over the cap; nothing is stored', async () => {
      const before = await stored(['app_logo', 'app_logo_horizontal']);
      const svg = await upload('app_logo', SVG, 'logo.svg');
      expect(svg.statusCode).toBe(422);
      expect(svg.json().errors.image[0]).toMatch(/SVG is not accepted/);
      // A png's name on text bytes: the bytes decide.
      expect((await upload('app_logo', Buffer.from('not an image at all'), 'logo.png')).statusCode).toBe(422);
      expect(
        (await upload('app_logo', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])))
          .statusCode,
      ).toBe(422);
      const wrongName = await upload('app_wallpaper', await image('png'));
      expect(wrongName.statusCode).toBe(422);
      expect(Object.keys(wrongName.json().errors)).toEqual(['name']);
      const big = Buffer.concat([await image('png'), Buffer.alloc(SETTINGS_IMAGE_MAX_BYTES)]);
      expect((await upload('app_logo_horizontal', big)).statusCode).toBe(413);
      // The image settings cannot be pointed at another stored object by name.
      expect((await save({ app_logo: 'some-avatar-key' })).statusCode).toBe(422);
      expect(await stored(['app_logo', 'app_logo_horizontal'])).toEqual(before);
    });

    it('leaves no renditions behind when its process is killed after storing them, before naming them', async () => {
      const first = await upload('app_favicon', await image('png', 300, 300));
      expect(first.statusCode).toBe(200);
      const killed = await killedWhileFiling(t, {
        counts: (_body, options) => options?.contentType === 'image/png',
      });
      // The process dies as the setting is being changed to name the new renditions.
      const naming = vi.spyOn(SettingsRepository.prototype, 'upsert').mockRejectedValue(new Error('killed'));
      try {
        await expect(
          t.deps.settingsImages.replace(adminId, 'app_favicon', await image('webp', 200, 200)),
        ).rejects.toThrow('killed');
      } finally {
        naming.mockRestore();
        killed.restore();
      }
      expect(killed.written).toHaveLength(2);
      expect(await killed.leftAfterSweep()).toEqual([]);
      // The favicon the instance had is still its own.
      const c = await config();
      expect(c.app.favicon).toBe(first.json().url);
      for (const url of [c.app.favicon!, c.app.touch_icon!])
        expect((await member.get(url)).statusCode).toBe(200);
    });

    it('deletes the renditions it replaced or cleared by the purge job when storage refuses at first', async () => {
      const store = await t.deps.storage.current();
      const put = store.put.bind(store);
      const written: string[] = [];
      const writing = vi.spyOn(store, 'put').mockImplementation(async (key, body, options) => {
        written.push(key);
        return put(key, body, options);
      });
      try {
        expect((await upload('app_og_image', await image('png'))).statusCode).toBe(200);
        const refusing = vi.spyOn(store, 'deleteMany').mockRejectedValue(new Error('storage away'));
        try {
          const replaced = await upload('app_og_image', await image('jpeg'));
          expect(replaced.statusCode, replaced.body).toBe(200);
          expect((await save({ app_og_image: null })).statusCode).toBe(204);
        } finally {
          refusing.mockRestore();
        }
      } finally {
        writing.mockRestore();
      }
      // The changes stand, and each rendition they let go is recorded for the job.
      expect((await config()).app.og_image).toBeNull();
      expect(written).toHaveLength(2);
      const left = async () => {
        const found = [];
        for (const key of written) if (await store.exists(key)) found.push(key);
        return found;
      };
      expect(await left()).toEqual(written);
      const worker = t.deps.jobs.startWorker({ definitions: [storagePurgeJob], services: t.deps });
      try {
        await expect.poll(left, { timeout: 15_000 }).toEqual([]);
      } finally {
        await worker.close();
      }
    });
  });

  describe('environment: tested before it is saved', () => {
    let peer: SmtpPeer;
    let worker: JobWorker;
    beforeAll(async () => {
      peer = await new SmtpPeer({ user: 'mailer', pass: 'right' }).start();
      // A reset request's mail leaves through a job.
      worker = t.deps.jobs.startWorker({ definitions: authJobDefinitions, services: t.deps });
    });
    afterAll(async () => {
      await worker.close();
      await peer.stop();
    });

    it('refuses an SMTP server that does not answer or refuses the credentials, keeping the old choice', async () => {
      await t.deps.settings.set({ mail_driver: 'log', smtp_url: null });
      const unreachable = await save({ mail_driver: 'smtp', smtp_url: 'smtp://127.0.0.1:1' });
      expect(unreachable.statusCode).toBe(422);
      expect(Object.keys(unreachable.json().errors)).toEqual(['smtp_url']);
      const wrongPassword = await save({
        mail_driver: 'smtp',
        smtp_url: `smtp://mailer:wrong@127.0.0.1:${peer.port}`,
      });
      expect(wrongPassword.statusCode).toBe(422);
      expect(wrongPassword.json().errors.smtp_url[0]).toMatch(/^mail: /);
      expect(wrongPassword.body).not.toMatch(/wrong@/);
      const malformed = await save({ mail_driver: 'smtp', smtp_url: 'http://mail.example.test' });
      expect(malformed.statusCode).toBe(422);
      expect(await stored(['mail_driver', 'smtp_url'])).toEqual({ mail_driver: 'log', smtp_url: null });
    });

    it('saves a working SMTP server, and mail goes through it', async () => {
      const url = `smtp://mailer:right@127.0.0.1:${peer.port}`;
      expect(
        (await save({ mail_driver: 'smtp', smtp_url: url, mail_from: 'files@atelier.test' })).statusCode,
      ).toBe(204);
      expect(await stored(['mail_driver', 'smtp_url'])).toEqual({ mail_driver: 'smtp', smtp_url: url });
      await member.post('/api/password/recover', { email: 'nobody-here@example.test' });
      const { user } = await createUser(t.deps, { email: 'reader@example.test' });
      await admin.post('/api/password/recover', { email: user.email });
      expect((await peer.waitFor('reader@example.test')).from).toBe('files@atelier.test');
      const resetJobs = authJobDefinitions.map((definition) => definition.id);
      await waitFor('both reset requests to be handled', async () => {
        const { waiting } = await t.deps.jobs.counts(resetJobs);
        return waiting === 0;
      });
      // Saving the tab again without retyping the address keeps it (and tests it again).
      expect((await save({ mail_driver: 'smtp', smtp_url: null })).statusCode).toBe(204);
      expect(await t.deps.settings.get('smtp_url')).toBe(url);
      await t.deps.settings.set({ mail_driver: 'log' });
    });

    it('refuses an S3 bucket it cannot reach', async () => {
      // An instance that stores nothing yet (this one holds the logos of the tests before), so the
      // switch is allowed and the bucket is what is tested.
      const empty = await createTestApp({ database });
      try {
        const emptyAdmin = (
          await signedInAgent(empty.app, (await createUser(empty.deps, { role: 'admin' })).user)
        ).agent;
        const answer = await emptyAdmin.post('/api/admin/settings', {
          settings: {
            storage_driver: 's3',
            s3: {
              endpoint: 'http://127.0.0.1:1',
              region: 'us-east-1',
              bucket: 'nowhere',
              accessKeyId: 'key',
              secretAccessKey: 'secret',
              forcePathStyle: true,
            },
          },
        });
        expect(answer.statusCode).toBe(422);
        expect(Object.keys(answer.json().errors)).toEqual(['s3']);
        expect(await empty.deps.settings.get('storage_driver')).not.toBe('s3');
      } finally {
        await empty.close();
      }
    });

    it('keeps the storage that holds files, however reachable another is', async () => {
      // An instance of its own: the file's background work would stay queued in the shared one's report.
      const [holding, s3] = await Promise.all([createTestApp({ database }), startS3Server()]);
      try {
        const owner = (
          await signedInAgent(holding.app, (await createUser(holding.deps, { role: 'admin' })).user)
        ).agent;
        const file = await uploaded(owner, Buffer.from('kept where it is'), { name: 'kept.txt' });
        const answer = await owner.post('/api/admin/settings', {
          settings: { storage_driver: 's3', s3: s3.config },
        });
        expect(answer.statusCode).toBe(422);
        expect(Object.keys(answer.json().errors)).toEqual(['storage_driver']);
        expect(await holding.deps.settings.get('storage_driver')).not.toBe('s3');
        expect((await owner.get(`/file/${file.id}`)).body).toBe('kept where it is');
      } finally {
        await Promise.all([holding.close(), s3.stop()]);
      }
    });

    it('keeps the storage that holds no file yet but a logo, an avatar or an upload under way', async () => {
      const png = await sharp({ create: { width: 64, height: 64, channels: 4, background: '#3366ccff' } })
        .png()
        .toBuffer();
      const stores: Record<string, (admin: TestAgent) => Promise<{ statusCode: number }>> = {
        logo: (admin) => {
          const { payload, headers } = multipartBody([
            { field: 'name', value: 'app_logo' },
            { file: 'image', filename: 'logo.png', data: png },
          ]);
          return admin.post('/api/admin/settings/image', payload, { headers });
        },
        avatar: (admin) => {
          const { payload, headers } = multipartBody([{ file: 'avatar', filename: 'me.png', data: png }]);
          return admin.post('/api/user/avatar', payload, { headers });
        },
        'an upload’s first part': (admin) =>
          chunkRequest(admin, Buffer.alloc(1024, 7), {
            name: 'big.bin',
            key: 'k1-big.bin.part',
            last: false,
          }),
      };
      for (const [what, store] of Object.entries(stores)) {
        const [holding, s3] = await Promise.all([createTestApp({ database }), startS3Server()]);
        try {
          const admin = (
            await signedInAgent(holding.app, (await createUser(holding.deps, { role: 'admin' })).user)
          ).agent;
          expect((await store(admin)).statusCode, what).toBeLessThan(300);
          const answer = await admin.post('/api/admin/settings', {
            settings: { storage_driver: 's3', s3: s3.config },
          });
          expect(answer.statusCode, what).toBe(422);
          expect(Object.keys(answer.json().errors)).toEqual(['storage_driver']);
          expect(await holding.deps.settings.get('storage_driver')).not.toBe('s3');
        } finally {
          await Promise.all([holding.close(), s3.stop()]);
        }
      }
    });
  });

  describe('maintenance', () => {
    afterEach(async () => {
      await t.deps.settings.set({ maintenance: false });
    });

    it('shuts members out with 503 at once while admins keep working and can end it', async () => {
      expect((await member.get('/api/browse/folders/all')).statusCode).not.toBe(503);
      expect((await save({ maintenance: true })).statusCode).toBe(204);
      expect((await config()).maintenance).toBe(true);
      const shut = await member.get('/api/browse/folders/all');
      expect(shut.statusCode).toBe(503);
      expect(shut.json().code).toBe('maintenance');
      expect((await admin.get('/api/admin/server-status')).statusCode).toBe(200);
      expect((await save({ maintenance: false })).statusCode).toBe(204);
      expect((await member.get('/api/browse/folders/all')).statusCode).not.toBe(503);
    });
  });

  it('reports the server: runtime, disk, database, queue, tools and recent errors without secrets', async () => {
    t.deps.errorLog.record({
      status: 500,
      method: 'POST',
      url: '/api/upload/chunks?token=abc',
      error: new Error('connect ECONNREFUSED postgres://atelier:db-TOPSECRET@db:5432/atelier'),
    });
    const answer = await admin.get('/api/admin/server-status');
    expect(answer.statusCode).toBe(200);
    const status = ServerStatus.parse(answer.json());
    expect(status.runtime.node).toBe(process.versions.node);
    expect(status.database.dialect).toBe(database);
    expect(status.database.version).toMatch(/^\d+\.\d+/);
    expect(status.disk!.total).toBeGreaterThan(status.disk!.free);
    expect(status.queue).toMatchObject({ driver: 'database', waiting: 0, failed: 0 });
    expect(status.ffmpeg.ok).toBe(true);
    expect(status.ffmpeg.detail).toMatch(/ffmpeg version/);
    expect(status.errors[0]).toMatchObject({ status: 500, method: 'POST', path: '/api/upload/chunks' });
    expect(answer.body).not.toMatch(/TOPSECRET|token=abc/);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL || !process.env.REDIS_URL)(
  'admin settings across two API processes [postgres + redis]',
  () => {
    let scratch: ScratchDatabase;
    const apps: FastifyInstance[] = [];
    const dirs: string[] = [];
    // The two processes' own queues and channels, shared by them alone and removed afterwards.
    const redisPrefix = scratchRedisPrefix();

    async function apiProcess(): Promise<FastifyInstance> {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'atelier-node-'));
      dirs.push(dataDir);
      const app = await buildApp({
        env: parseEnv({
          NODE_ENV: 'test',
          DATA_DIR: dataDir,
          LOG_LEVEL: 'silent',
          REDIS_URL: process.env.REDIS_URL!,
          REDIS_PREFIX: redisPrefix,
          RATE_LIMIT_MAX: '100000',
        }),
        database: await openPreparedDatabase(scratch.url),
        databasePinned: true,
        // Time stands still for the settings' cache: what it holds never expires, so only the
        // change bus can make a node read a change another node made.
        elapsedMs: () => 0,
        logger: false,
      });
      await app.ready();
      await app.deps.changes.whenReady();
      apps.push(app);
      return app;
    }

    beforeAll(async () => {
      scratch = await createPostgresDatabase(requiredTestDatabaseUrl());
    });
    afterAll(async () => {
      await Promise.all(apps.map((app) => app.close()));
      await scratch.drop();
      await deleteRedisKeys(process.env.REDIS_URL!, redisPrefix);
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    });

    it('a change on one node is answered by the other, whose cache of the settings never expires', async () => {
      const [one, two] = [await apiProcess(), await apiProcess()];
      await one.deps.settings.set({ installed: true, contact_email: 'ops@atelier.test' });
      const { user } = await createUser(one.deps, { role: 'admin' });
      const { agent } = await signedInAgent(one, user);
      const configOf = async (app: FastifyInstance) =>
        PublicConfig.parse((await app.inject({ method: 'GET', url: '/api/config' })).json());

      // The second node has read (and cached) the settings before the change.
      await expect.poll(async () => (await configOf(two)).installation).toBe('installation-done');
      expect((await configOf(two)).registration).toBe(true);

      const answer = await agent.post('/api/admin/settings', {
        settings: { app_title: 'Cluster title', registration: false, maintenance: true },
      });
      expect(answer.statusCode).toBe(204);
      // The second node's cache holds the old settings for good; Redis brings the news.
      await expect
        .poll(async () => (await configOf(two)).app.name, { timeout: 10_000, interval: 20 })
        .toBe('Cluster title');
      expect(await configOf(two)).toMatchObject({ registration: false, maintenance: true });
      const shut = await two.inject({ method: 'GET', url: '/api/browse/folders/all' });
      expect(shut.statusCode).toBe(503);
    });
  },
);
