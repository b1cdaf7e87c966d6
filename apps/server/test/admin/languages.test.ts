import { en, placeholdersOf } from '@atelier/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app';
import { openPreparedDatabase } from '../../src/db/prepare';
import { parseEnv } from '../../src/env';
import { TranslationsRepository } from '../../src/modules/i18n/translations.repository';
import type { FastifyInstance } from 'fastify';
import type { TestAgent } from '../support/agent';
import { createScratchDatabase, databaseKinds, type ScratchDatabase } from '../support/databases';
import { describeEachDatabase } from '../support/each-database';
import { deleteRedisKeys, scratchRedisPrefix } from '../support/redis-scratch';
import { createTestApp, type TestApp } from '../support/test-app';
import { createSession, createUser, signedInAgent } from '../support/factories';
import { waitFor } from '../jobs/support/wait-for';
import { connectSocket, recordEvents, type ClientSocket } from '../realtime/support/sockets';

const KEY = 'files.move_many';
const TOTAL = Object.keys(en).length;

describeEachDatabase('admin: the language editor', (kind) => {
  let t: TestApp;
  let admin: TestAgent;

  beforeAll(async () => {
    t = await createTestApp({ database: kind });
    admin = (await signedInAgent(t.app, (await createUser(t.deps, { role: 'admin' })).user)).agent;
  });
  afterAll(() => t.close());

  const strings = async (locale: string, query = '') =>
    (await admin.get(`/api/admin/languages/${locale}/strings${query}`)).json().data as Array<{
      key: string;
      default: string;
      value: string;
      status: string;
    }>;
  const translations = async (locale: string) => (await admin.get(`/translations/${locale}`)).json();

  it('lists English, complete and the default, with every shipped key', async () => {
    const res = await admin.get('/api/admin/languages');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([
      { locale: 'en', name: 'English', translated: TOTAL, total: TOTAL, is_default: true },
    ]);
  });

  it('adds a language that starts as English, and refuses it twice or with a bad code', async () => {
    const created = await admin.post('/api/admin/languages', { locale: 'de', name: 'Deutsch' });
    expect(created.statusCode).toBe(201);
    expect(created.json().data).toEqual({
      locale: 'de',
      name: 'Deutsch',
      translated: 0,
      total: TOTAL,
      is_default: false,
    });
    expect(await translations('de')).toEqual(await translations('en'));
    expect((await strings('de', '?status=default')).length).toBe(TOTAL);

    const again = await admin.post('/api/admin/languages', { locale: 'de', name: 'Again' });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.locale).toEqual(['This language exists already.']);
    const bad = await admin.post('/api/admin/languages', { locale: '../x', name: 'X' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.locale).toBeDefined();
  });

  it('refuses a text whose placeholders differ from the English, naming them, and changes nothing', async () => {
    expect(en[KEY]).toContain('{{count}}');
    for (const [value, field] of [
      ['Hochgeladen', 'Keep the placeholders of the English text: {{count}}.'],
      ['{{count}} hochgeladen von {{name}}', 'These placeholders are not in the English text: {{name}}.'],
      ['{count} hochgeladen :count', 'Keep the placeholders of the English text: {{count}}.'],
    ]) {
      const res = await admin.patch('/api/admin/languages/de/strings', { key: KEY, value });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.value[0]).toBe(field);
    }
    const row = (await strings('de', `?search=${KEY}`)).find((s) => s.key === KEY)!;
    expect(row).toEqual({ key: KEY, default: en[KEY], value: en[KEY], status: 'default' });
    expect((await translations('de'))[KEY]).toBe(en[KEY]);
  });

  it('stores an override that /translations serves at once, counted in the progress', async () => {
    const before = await translations('de'); // cached now: the edit must drop the cache
    expect(before[KEY]).toBe(en[KEY]);
    const etagBefore = (await admin.get('/translations/de')).headers.etag as string;
    const value = en[KEY]!.replace(/^[^{]*/, 'Hochgeladen: ');
    const res = await admin.patch('/api/admin/languages/de/strings', { key: KEY, value });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ key: KEY, default: en[KEY], value, status: 'overridden' });
    expect((await translations('de'))[KEY]).toBe(value);
    expect((await translations('en'))[KEY]).toBe(en[KEY]);
    // A browser revalidating the strings it holds gets the edited ones, not a 304.
    const revisit = await admin.get('/translations/de', { headers: { 'if-none-match': etagBefore } });
    expect(revisit.statusCode).toBe(200);
    expect(revisit.json()[KEY]).toBe(value);
    const german = (await admin.get('/api/admin/languages'))
      .json()
      .data.find((l: { locale: string }) => l.locale === 'de');
    expect(german.translated).toBe(1);
    expect((await strings('de', '?status=overridden')).map((s) => s.key)).toEqual([KEY]);
    expect((await strings('de', '?search=hochgeladen')).map((s) => s.key)).toEqual([KEY]);
  });

  it('serves an edit at once even when a load of the strings was on its way as it was made', async () => {
    await admin.post('/api/admin/languages', { locale: 'it', name: 'Italiano' });
    let release!: () => void;
    const latch = new Promise<void>((resolve) => (release = resolve));
    let stalling!: () => void;
    const stalled = new Promise<void>((resolve) => (stalling = resolve));
    const overrides = TranslationsRepository.prototype.overrides;
    // The Italian overrides are read, then the load stalls (a slow database) before it caches them.
    const slow = vi.spyOn(TranslationsRepository.prototype, 'overrides').mockImplementation(async function (
      this: TranslationsRepository,
      ...args: Parameters<typeof overrides>
    ) {
      const rows = await overrides.apply(this, args);
      if (args[0] === 'it') {
        stalling();
        await latch;
      }
      return rows;
    });
    try {
      t.deps.i18n.invalidate();
      const loading = t.deps.i18n.messages('it');
      await stalled;
      // The edit reads what it needs of Italian while the stalled load waits.
      slow.mockRestore();
      const value = en[KEY]!.replace(/^[^{]*/, 'Caricato: ');
      expect((await admin.patch('/api/admin/languages/it/strings', { key: KEY, value })).statusCode).toBe(
        200,
      );
      release();
      await loading;
      expect((await translations('it'))[KEY]).toBe(value);
    } finally {
      slow.mockRestore();
      release();
      await admin.delete('/api/admin/languages/it');
    }
  });

  it('shows an override made against other English text as outdated, and not as translated', async () => {
    const key = 'alerts.error_confirm';
    await t.deps.database.db
      .insertInto('translation_overrides')
      .values({
        locale: 'de',
        key,
        value: 'Schrecklich!',
        source: 'That was horrible!',
        updated_at: new Date().toISOString(),
      })
      .execute();
    t.deps.i18n.invalidate();
    const outdated = await strings('de', '?status=outdated');
    expect(outdated).toEqual([{ key, default: en[key], value: 'Schrecklich!', status: 'outdated' }]);
    // Still served (better than English for the reader) until the admin reviews it.
    expect((await translations('de'))[key]).toBe('Schrecklich!');
    const german = (await admin.get('/api/admin/languages'))
      .json()
      .data.find((l: { locale: string }) => l.locale === 'de');
    expect(german.translated).toBe(1);

    // Saving it again marks it made against today's English.
    await admin.patch('/api/admin/languages/de/strings', { key, value: 'Schrecklich!' });
    expect((await strings('de', `?search=${key}`)).find((s) => s.key === key)!.status).toBe('overridden');
  });

  it('reverts a string to the default', async () => {
    const res = await admin.delete(`/api/admin/languages/de/strings/${KEY}`);
    expect(res.statusCode).toBe(204);
    expect((await translations('de'))[KEY]).toBe(en[KEY]);
    expect((await strings('de', `?search=${KEY}`)).find((s) => s.key === KEY)!.status).toBe('default');
    expect((await admin.delete('/api/admin/languages/de/strings/no.such.key')).statusCode).toBe(404);
  });

  it('edits English too; other languages fall back to the edited English', async () => {
    const key = 'alerts.success_confirm';
    const res = await admin.patch('/api/admin/languages/en/strings', { key, value: 'Splendid!' });
    expect(res.statusCode).toBe(200);
    expect((await translations('en'))[key]).toBe('Splendid!');
    expect((await translations('de'))[key]).toBe('Splendid!');
    await admin.delete(`/api/admin/languages/en/strings/${key}`);
    expect((await translations('de'))[key]).toBe(en[key]);
  });

  it('refuses unknown keys and languages', async () => {
    expect(
      (await admin.patch('/api/admin/languages/de/strings', { key: 'no.such', value: 'x' })).statusCode,
    ).toBe(422);
    // Names every object has are no strings of the app either.
    for (const key of ['constructor', '__proto__', 'toString'])
      expect(
        (await admin.patch('/api/admin/languages/de/strings', { key, value: 'x' })).statusCode,
        key,
      ).toBe(422);
    expect((await admin.patch('/api/admin/languages/fr/strings', { key: KEY, value: 'x' })).statusCode).toBe(
      404,
    );
    expect((await admin.get('/api/admin/languages/fr/strings')).statusCode).toBe(404);
  });

  it('sets the default language, which then cannot be removed; English never can', async () => {
    expect((await admin.post('/api/admin/languages/de/default')).statusCode).toBe(204);
    expect((await admin.get('/api/config')).json()).toMatchObject({
      locale: 'de',
      languages: [
        { locale: 'en', name: 'English' },
        { locale: 'de', name: 'Deutsch' },
      ],
    });
    const refused = await admin.delete('/api/admin/languages/de');
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.locale).toEqual([
      'This is the default language. Make another language the default first.',
    ]);
    await admin.post('/api/admin/languages/en/default');
    const english = await admin.delete('/api/admin/languages/en');
    expect(english.statusCode).toBe(422);
    expect(english.json().errors.locale).toEqual([
      'English cannot be removed: every other language falls back to it.',
    ]);
  });

  it('removes a language with its overrides; its address then serves English', async () => {
    await admin.patch('/api/admin/languages/de/strings', { key: KEY, value: 'Hochgeladen: {{count}}' });
    expect((await admin.delete('/api/admin/languages/de')).statusCode).toBe(204);
    expect(
      (await admin.get('/api/admin/languages')).json().data.map((l: { locale: string }) => l.locale),
    ).toEqual(['en']);
    expect((await translations('de'))[KEY]).toBe(en[KEY]);
    const left = await t.deps.database.db
      .selectFrom('translation_overrides')
      .selectAll()
      .where('locale', '=', 'de')
      .execute();
    expect(left).toEqual([]);
    expect((await admin.delete('/api/admin/languages/de')).statusCode).toBe(404);
  });

  it('keeps every admin call from a user', async () => {
    const { agent } = await signedInAgent(t.app);
    expect((await agent.get('/api/admin/languages')).statusCode).toBe(403);
    expect(
      (await agent.patch('/api/admin/languages/en/strings', { key: KEY, value: 'x {{count}}' })).statusCode,
    ).toBe(403);
  });
});

describe('placeholders of the shipped English strings', () => {
  it('finds only real placeholders in the English text', () => {
    for (const text of Object.values(en))
      for (const placeholder of placeholdersOf(text))
        expect(placeholder).toMatch(/^(\{\{\w+\}\}|\{\w+\}|:\w+)$/);
    expect(placeholdersOf('At 10:30 see https://x.test/:id or :name, {user} and {{ count }}')).toEqual([
      '{{count}}',
      ':name',
      '{user}',
    ]);
    // A formatted one is the same placeholder: a translation must keep the number.
    expect(placeholdersOf('{{count, number}} items')).toEqual(['{{count}}']);
    // Every {{…}} of the English text is recognised as one.
    for (const text of Object.values(en))
      expect(placeholdersOf(text).filter((p) => p.startsWith('{{'))).toHaveLength(
        text.match(/\{\{/g)?.length ?? 0,
      );
  });
});

describe('the language editor on a listening server', () => {
  let t: TestApp;
  let baseUrl: string;
  let socket: ClientSocket | undefined;
  beforeAll(async () => {
    t = await createTestApp();
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    socket?.close();
    await t.close();
  });

  it("tells open tabs that a language's strings changed, so they fetch them again", async () => {
    const { user } = await createUser(t.deps);
    const { agent: admin } = await signedInAgent(t.app, (await createUser(t.deps, { role: 'admin' })).user);
    socket = await connectSocket(baseUrl, { session: await createSession(t.deps, user) });
    const events = recordEvents(socket);
    await admin.post('/api/admin/languages', { locale: 'fr', name: 'Français' });
    await admin.patch('/api/admin/languages/fr/strings', {
      key: 'alerts.error_confirm',
      value: 'Quelle horreur !',
    });
    await waitFor('two events', () => events.length >= 2);
    expect(events).toEqual([
      { event: 'translations.updated', payload: { locale: 'fr' } },
      { event: 'translations.updated', payload: { locale: 'fr' } },
    ]);
  });
});

const redisUrl = process.env.REDIS_URL;

describe.skipIf(!redisUrl)(
  `the language editor across two API processes on one Redis (${databaseKinds.at(-1)})`,
  () => {
    let scratch: ScratchDatabase;
    const apps: FastifyInstance[] = [];
    // The two processes' own queues and channels, shared by them alone and removed afterwards.
    const redisPrefix = scratchRedisPrefix();

    beforeAll(async () => {
      // PostgreSQL when configured (the scaled-out shape), else one SQLite file shared by both.
      scratch = await createScratchDatabase(databaseKinds.at(-1)!);
      for (const _ of [1, 2]) {
        const env = parseEnv({
          NODE_ENV: 'test',
          APP_URL: 'http://atelier.test',
          LOG_LEVEL: 'silent',
          RATE_LIMIT_MAX: '100000',
          REDIS_URL: redisUrl!,
          REDIS_PREFIX: redisPrefix,
        });
        const app = await buildApp({
          env,
          database: await openPreparedDatabase(scratch.url),
          databasePinned: true,
          logger: false,
        });
        await app.ready();
        await app.deps.changes.whenReady();
        apps.push(app);
      }
      await apps[0]!.deps.settings.set({ installed: true });
    });
    afterAll(async () => {
      for (const app of apps) await app.close();
      await scratch.drop();
      await deleteRedisKeys(redisUrl!, redisPrefix);
    });

    it('serves an edit made on one process from the other within moments, not at its cache expiry', async () => {
      const [first, second] = apps as [FastifyInstance, FastifyInstance];
      const { agent: admin } = await signedInAgent(
        first,
        (await createUser(first.deps, { role: 'admin' })).user,
      );
      const served = async () =>
        (await second.inject({ method: 'GET', url: '/translations/en' })).json()['alerts.error_confirm'];
      expect(await served()).toBe(en['alerts.error_confirm']); // the second process holds English now

      const res = await admin.patch('/api/admin/languages/en/strings', {
        key: 'alerts.error_confirm',
        value: 'Oh no!',
      });
      expect(res.statusCode).toBe(200);
      // Its cache lives a minute: only the published change can bring the new text within seconds
      // (a busy machine may take more than one).
      await waitFor(
        'the second process to serve the edit',
        async () => (await served()) === 'Oh no!',
        10_000,
      );

      // A language the second process never heard of: its list of languages is cached too.
      expect(
        (await second.inject({ method: 'GET', url: '/translations/es' })).json()['alerts.error_confirm'],
      ).toBe('Oh no!');
      expect((await admin.post('/api/admin/languages', { locale: 'es', name: 'Español' })).statusCode).toBe(
        201,
      );
      await admin.patch('/api/admin/languages/es/strings', {
        key: 'alerts.error_confirm',
        value: '¡Qué horror!',
      });
      await waitFor(
        'the second process to serve the new language',
        async () =>
          (await second.inject({ method: 'GET', url: '/translations/es' })).json()['alerts.error_confirm'] ===
          '¡Qué horror!',
        2_000,
      );
    });
  },
);
