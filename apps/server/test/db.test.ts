import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openConnection, type Database } from '../src/db/database';
import { migrateToLatest } from '../src/db/migrate';
import { prepareConnection } from '../src/db/prepare';
import { SessionsRepository } from '../src/modules/auth/sessions.repository';
import { SessionsService, type SessionSockets } from '../src/modules/auth/sessions.service';
import { UserTokensRepository } from '../src/modules/auth/user-tokens.repository';
import { SettingsRepository } from '../src/modules/settings/settings.repository';
import { SettingsService } from '../src/modules/settings/settings.service';
import { hashToken } from '../src/lib/tokens';
import { createScratchDatabase, type ScratchDatabase } from './support/databases';
import { describeEachDatabase } from './support/each-database';
import { createUser } from './support/factories';
import { createTestApp, type TestApp } from './support/test-app';

describeEachDatabase('migrations', (kind) => {
  let scratch: ScratchDatabase;
  beforeAll(async () => {
    scratch = await createScratchDatabase(kind);
  });
  afterAll(() => scratch.drop());

  it('create every foundation table once and are a no-op the second time', async () => {
    const connection = openConnection(scratch.url);
    try {
      await prepareConnection(connection);
      expect(await migrateToLatest(connection)).toEqual([]);
      const tables = (await connection.db.introspection.getTables()).map((t) => t.name);
      expect(tables).toEqual(
        expect.arrayContaining([
          'users',
          'sessions',
          'password_resets',
          'email_verifications',
          'settings',
          'pages',
          'languages',
          'translation_overrides',
          'user_settings',
        ]),
      );
      if (kind === 'sqlite') {
        const journal = await sql<{ journal_mode: string }>`PRAGMA journal_mode`.execute(connection.db);
        expect(journal.rows[0]?.journal_mode).toBe('wal');
      }
    } finally {
      await connection.db.destroy();
    }
  });
});

const DAY = 24 * 60 * 60_000;
/** These sessions have no realtime connections to close. */
const noSockets: SessionSockets = {
  disconnectStoredSession: () => {},
  disconnectUser: () => {},
  disconnectUserExcept: () => {},
};

describeEachDatabase('repositories', (kind) => {
  let t: TestApp;
  let database: Database;
  beforeAll(async () => {
    t = await createTestApp({ database: kind });
    database = t.deps.database;
  });
  afterAll(() => t.close());

  it('settings: upsert overwrites, typed reads fall back to defaults', async () => {
    const repository = new SettingsRepository(database, t.deps.clock);
    const service = new SettingsService(repository, database, t.deps.clock);
    await service.set({ upload_limit: 10, mimetypes_blacklist: ['exe'] });
    await service.set({ upload_limit: 20 });
    const fresh = await new SettingsService(repository, database, t.deps.clock).all();
    expect(fresh.upload_limit).toBe(20);
    expect(fresh.mimetypes_blacklist).toEqual(['exe']);
    expect(fresh.chunk_size).toBe(8 * 1024 * 1024);
  });

  it('sessions: deleting a user removes its sessions (foreign keys enforced)', async () => {
    const { user } = await createUser(t.deps);
    const sessions = new SessionsService(
      new SessionsRepository(database),
      30,
      () => new Date(),
      noSockets,
      database,
    );
    const { token } = await sessions.create(user, { ip: null, userAgent: null });
    expect((await sessions.resolve(token))?.id).toBe(user.id);
    await database.db.deleteFrom('users').where('id', '=', user.id).execute();
    const left = await database.db
      .selectFrom('sessions')
      .select('id')
      .where('id', '=', hashToken(token))
      .execute();
    expect(left).toEqual([]);
  });

  it('sessions: a session expires by the injected clock, then signs nobody in and is cleared at the next sign-in', async () => {
    const { user } = await createUser(t.deps);
    const start = new Date('2026-06-01T09:00:00.000Z');
    let now = start;
    const sessions = new SessionsService(
      new SessionsRepository(database),
      30,
      () => now,
      noSockets,
      database,
    );
    const { token } = await sessions.create(user, { ip: null, userAgent: null });
    now = new Date(start.getTime() + 30 * DAY - 1_000);
    expect((await sessions.resolve(token))?.id).toBe(user.id);
    now = new Date(start.getTime() + 30 * DAY);
    expect(await sessions.resolve(token)).toBeUndefined();
    await sessions.create(user, { ip: null, userAgent: null });
    const rows = await database.db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', user.id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).not.toBe(hashToken(token));
  });

  it('user tokens: a token expires by the injected clock', async () => {
    const { user } = await createUser(t.deps);
    const start = new Date('2026-06-01T09:00:00.000Z');
    let now = start;
    const tokens = new UserTokensRepository(database, 'password_resets', () => now);
    await tokens.insert(user.id, 'digest-clock', new Date(start.getTime() + 60 * 60_000));
    now = new Date(start.getTime() + 59 * 60_000);
    expect(await tokens.peek('digest-clock')).toBe(user.id);
    now = new Date(start.getTime() + 60 * 60_000);
    expect(await tokens.peek('digest-clock')).toBeUndefined();
    expect(await tokens.consume('digest-clock')).toBeUndefined();
  });

  it('user tokens: a token is consumed once, even by concurrent requests', async () => {
    const { user } = await createUser(t.deps);
    const tokens = new UserTokensRepository(database, 'password_resets', () => new Date());
    await tokens.insert(user.id, 'digest-1', new Date(Date.now() + 60_000));
    const results = await Promise.all([
      tokens.consume('digest-1'),
      tokens.consume('digest-1'),
      tokens.consume('digest-1'),
    ]);
    expect(results.filter((r) => r === user.id)).toHaveLength(1);
    expect(await tokens.peek('digest-1')).toBeUndefined();
  });
});
