import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SETUP_TOKEN_COOKIE, UserResource } from '@atelier/contracts';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveDatabaseUrl } from '../src/db/database-url';
import { authJobDefinitions } from '../src/modules/auth/auth.jobs';
import { SESSION_COOKIE } from '../src/plugins/session.plugin';
import { TestAgent } from './support/agent';
import {
  createPostgresDatabase,
  databaseKinds,
  requiredTestDatabaseUrl,
  type ScratchDatabase,
} from './support/databases';
import { WriteFaults } from './faults/write-faults';
import { describeEachDatabase } from './support/each-database';
import { SmtpPeer } from './support/smtp-peer';
import { createTestApp, type TestApp } from './support/test-app';
import { startS3Server, type TestS3Server } from './storage/s3-server';

const SETUP_STEPS = [
  ['GET', '/api/setup/status-check'],
  ['POST', '/api/setup/purchase-code'],
  ['POST', '/api/setup/database'],
  ['POST', '/api/setup/environment-setup'],
  ['POST', '/api/setup/app-setup'],
  ['POST', '/api/setup/admin-setup'],
] as const;

const admin = {
  name: 'Ada Admin',
  email: 'admin@example.test',
  password: 'admin password',
  password_confirmation: 'admin password',
};

/** A browser that opened the setup link a starting server printed. */
async function wizardAgent(t: TestApp): Promise<TestAgent> {
  const agent = new TestAgent(t.app);
  agent.setCookie(SETUP_TOKEN_COOKIE, await t.deps.setup.issueSetupToken());
  return agent;
}

describeEachDatabase('setup wizard', (kind) => {
  let t: TestApp;
  let smtp: SmtpPeer;
  let s3: TestS3Server;
  let agent: TestAgent;
  beforeAll(async () => {
    [smtp, s3] = await Promise.all([new SmtpPeer().start(), startS3Server()]);
    t = await createTestApp({ database: kind, installed: false });
    agent = await wizardAgent(t);
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([smtp.stop(), s3.stop()]);
  });

  describe('before installation', () => {
    it('reports installation-needed in the config', async () => {
      expect((await agent.get('/api/config')).json().installation).toBe('installation-needed');
    });

    it('answers 503 not_installed on the rest of the API', async () => {
      for (const url of ['/api/user', '/api/pages/terms-of-service']) {
        const res = await agent.get(url);
        expect(res.statusCode).toBe(503);
        expect(res.json()).toMatchObject({
          code: 'not_installed',
          message: expect.stringMatching(/not installed/),
        });
      }
      const login = await agent.post('/api/login', { email: 'a@b.co', password: 'x' });
      expect(login.statusCode).toBe(503);
    });

    it('keeps ping and translations open', async () => {
      expect((await agent.get('/api/ping')).statusCode).toBe(200);
      expect((await agent.get('/translations/en')).statusCode).toBe(200);
    });
  });

  describe('steps', () => {
    it('status-check reports each requirement', async () => {
      const res = await agent.get('/api/setup/status-check');
      expect(res.statusCode).toBe(200);
      const { checks } = res.json() as { checks: Array<{ name: string; ok: boolean; detail: string }> };
      expect(checks.map((c) => c.name)).toEqual([
        'Node.js runtime',
        'Writable data folder',
        'ffmpeg for video rendering',
        'Database connection',
      ]);
      for (const check of checks) expect(check, check.detail).toMatchObject({ ok: true });
    });

    it('purchase-code accepts a licence-shaped code and refuses anything else', async () => {
      const bad = await agent.post('/api/setup/purchase-code', { purchaseCode: 'hello' });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors.purchaseCode).toBeDefined();
      const good = await agent.post('/api/setup/purchase-code', {
        purchaseCode: '8f14e45f-ceea-467f-a0e6-a6c0b5e3f1d2',
      });
      expect(good.statusCode).toBe(200);
    });

    it('database refuses an unreachable PostgreSQL with the driver reason and keeps the current database', async () => {
      const res = await agent.post('/api/setup/database', {
        connection: 'pgsql',
        host: '127.0.0.1',
        port: 1,
        database: 'nothing',
        username: 'nobody',
        password: 'x',
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.connection[0]).toMatch(/ECONNREFUSED|connect/i);
      expect((await agent.get('/api/config')).statusCode).toBe(200);
    });

    it.runIf(kind === 'sqlite')(
      'database keeps SQLite in DATA_DIR when chosen, wherever DATA_DIR moves',
      async () => {
        // A choice left from before (PostgreSQL, then SQLite again) goes with it.
        writeFileSync(path.join(t.dataDir, 'database.json'), JSON.stringify({ url: 'postgres://old@db/x' }));
        const res = await agent.post('/api/setup/database', { connection: 'sqlite' });
        expect(res.statusCode).toBe(200);
        expect(existsSync(path.join(t.dataDir, 'database.json'))).toBe(false);
        expect(resolveDatabaseUrl({ DATABASE_URL: undefined, dataDir: t.dataDir }).url).toBe(
          `sqlite:${path.join(t.dataDir, 'atelier.sqlite')}`,
        );
        // The folder restored elsewhere opens the database it holds, not the old place's.
        expect(resolveDatabaseUrl({ DATABASE_URL: undefined, dataDir: '/srv/restored' }).url).toBe(
          `sqlite:${path.join('/srv/restored', 'atelier.sqlite')}`,
        );
      },
    );

    it('environment names the service that failed and stores nothing', async () => {
      const res = await agent.post('/api/setup/environment-setup', {
        storage: { driver: 'local' },
        mail: { driver: 'smtp', url: 'smtp://127.0.0.1:1' },
        broadcasting: { driver: 'socket.io' },
      });
      expect(res.statusCode).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual(['mail']);
      expect(await t.deps.settings.get('mail_driver')).toBe('log');

      const s3Down = await agent.post('/api/setup/environment-setup', {
        storage: { driver: 's3', ...s3.config, bucket: 'no-such-bucket' },
        mail: { driver: 'log' },
        broadcasting: { driver: 'null' },
      });
      expect(s3Down.statusCode).toBe(422);
      expect(Object.keys(s3Down.json().errors)).toEqual(['storage']);
    });

    it('environment tests S3 and SMTP for real, then stores the choices', async () => {
      const res = await agent.post('/api/setup/environment-setup', {
        storage: { driver: 's3', ...s3.config },
        mail: { driver: 'smtp', url: smtp.url, from: 'robot@example.test' },
        broadcasting: { driver: 'socket.io' },
      });
      expect(res.statusCode, res.body).toBe(200);
      const settings = await t.deps.settings.all();
      expect(settings).toMatchObject({
        storage_driver: 's3',
        mail_driver: 'smtp',
        smtp_url: smtp.url,
        broadcasting_driver: 'socket.io',
      });
      expect(settings.s3?.bucket).toBe(s3.config.bucket);

      // Local disk again, so the rest of the suite does not depend on the S3 peer.
      const local = await agent.post('/api/setup/environment-setup', {
        storage: { driver: 'local' },
        mail: { driver: 'smtp', url: smtp.url },
        broadcasting: { driver: 'socket.io' },
      });
      expect(local.statusCode).toBe(200);
      expect(existsSync(path.join(t.dataDir, 'storage'))).toBe(true);
    });

    it('app-setup stores the instance settings', async () => {
      const res = await agent.post('/api/setup/app-setup', {
        title: 'Studio North',
        description: 'Renders for the north team',
        contactEmail: 'hello@studio.test',
        subscriptionType: 'fixed',
        registration: false,
        storageLimitation: true,
        defaultStorage: 12,
        defaultTeamMembers: 4,
        fileManagerCutoff: '2025-06-01',
        fileManagerForAll: true,
      });
      expect(res.statusCode).toBe(200);
      const config = (await agent.get('/api/config')).json();
      expect(config).toMatchObject({
        app: { name: 'Studio North', contactEmail: 'hello@studio.test' },
        subscriptionType: 'fixed',
        registration: false,
      });
      expect(await t.deps.settings.get('default_storage_gb')).toBe(12);
      expect(await t.deps.settings.get('file_manager_cutoff')).toBe('2025-06-01');
      expect(await t.deps.settings.get('file_manager_for_all')).toBe(true);
    });

    it('admin-setup creates the admin, finishes the installation and signs the admin in', async () => {
      const res = await agent.post('/api/setup/admin-setup', admin);
      expect(res.statusCode).toBe(201);
      expect(UserResource.parse(res.json()).data.attributes).toMatchObject({
        role: 'admin',
        email: 'admin@example.test',
      });
      expect(agent.cookie(SESSION_COOKIE)).toBeTruthy();
      expect((await agent.get('/api/config')).json().installation).toBe('installation-done');
      const me = await agent.get('/api/user');
      expect(me.statusCode).toBe(200);
      expect(me.json().data.attributes.role).toBe('admin');
      expect(me.json().meta.limitations.max_team_members.total).toBe(4);
    });
  });

  describe('after installation', () => {
    it('answers 410 on every step', async () => {
      for (const [method, url] of SETUP_STEPS) {
        const res = method === 'GET' ? await agent.get(url) : await agent.post(url, {});
        expect(res.statusCode, url).toBe(410);
        expect(res.json().code).toBe('gone');
      }
    });

    it('lets a second attempt create no other admin', async () => {
      await agent.post('/api/setup/admin-setup', { ...admin, email: 'intruder@example.test' });
      expect(await t.deps.users.findByEmail('intruder@example.test')).toBeUndefined();
    });
  });
});

describeEachDatabase('setup token', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ database: kind, installed: false });
  });
  afterAll(() => t.close());

  const setupTokenRows = () =>
    t.deps.database.db.selectFrom('settings').selectAll().where('key', 'like', 'setup-token:%').execute();

  it('answers 403 on every step without the printed token or with another one, and changes nothing', async () => {
    await t.deps.setup.issueSetupToken();
    const stranger = new TestAgent(t.app);
    const guesser = new TestAgent(t.app);
    guesser.setCookie(SETUP_TOKEN_COOKIE, 'a-guessed-token');
    const bodies: Record<string, unknown> = {
      '/api/setup/purchase-code': { purchaseCode: '8f14e45f-ceea-467f-a0e6-a6c0b5e3f1d2' },
      '/api/setup/database': { connection: 'sqlite' },
      '/api/setup/app-setup': { title: 'Taken over', contactEmail: 'evil@example.test' },
      '/api/setup/admin-setup': admin,
    };
    for (const agent of [stranger, guesser]) {
      for (const [method, url] of SETUP_STEPS) {
        const res = method === 'GET' ? await agent.get(url) : await agent.post(url, bodies[url] ?? {});
        expect(res.statusCode, url).toBe(403);
        expect(res.json()).toEqual({
          code: 'forbidden',
          message:
            'This setup link is not valid. Open the link the server printed when it started (it ends in ?token=…).',
        });
      }
    }
    const settings = await t.deps.settings.all();
    expect(settings).toMatchObject({ installed: false, purchase_code: null, app_title: 'Atelier' });
    expect(await t.deps.users.findByEmail(admin.email)).toBeUndefined();
  });

  it('stores only a hash of the token', async () => {
    const token = await t.deps.setup.issueSetupToken();
    const rows = await setupTokenRows();
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('opens the wizard to the token of every process that started, until the installation is done', async () => {
    const [first, second] = [await wizardAgent(t), await wizardAgent(t)];
    expect((await first.get('/api/setup/status-check')).statusCode).toBe(200);
    expect((await second.get('/api/setup/status-check')).statusCode).toBe(200);
    expect((await second.post('/api/setup/admin-setup', admin)).statusCode).toBe(201);
    expect(await setupTokenRows()).toEqual([]);
    expect((await first.get('/api/setup/status-check')).statusCode).toBe(410);
  });
});

describe.runIf(databaseKinds.includes('postgres'))('setup wizard switching SQLite to PostgreSQL', () => {
  let t: TestApp;
  let target: ScratchDatabase;
  beforeAll(async () => {
    target = await createPostgresDatabase(requiredTestDatabaseUrl());
    t = await createTestApp({ database: 'sqlite', installed: false });
  });
  afterAll(async () => {
    await t.close();
    await target.drop();
  });

  it('migrates the new database, carries the settings and the setup token over and makes it live', async () => {
    const agent = await wizardAgent(t);
    await agent.post('/api/setup/purchase-code', { purchaseCode: '8f14e45f-ceea-467f-a0e6-a6c0b5e3f1d2' });
    const url = new URL(target.url);
    const res = await agent.post('/api/setup/database', {
      connection: 'pgsql',
      host: url.hostname,
      port: Number(url.port || 5432),
      database: url.pathname.slice(1),
      username: decodeURIComponent(url.username) || 'postgres',
      password: decodeURIComponent(url.password),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(t.deps.database.dialect).toBe('postgres');
    expect(JSON.parse(readFileSync(path.join(t.dataDir, 'database.json'), 'utf8')).url).toMatch(
      /^postgres:\/\//,
    );

    expect((await agent.post('/api/setup/admin-setup', admin)).statusCode).toBe(201);

    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    try {
      const users = await client.query('SELECT email, role FROM users');
      expect(users.rows).toEqual([{ email: 'admin@example.test', role: 'admin' }]);
      const code = await client.query("SELECT value FROM settings WHERE key = 'purchase_code'");
      expect(JSON.parse(code.rows[0].value)).toBe('8f14e45f-ceea-467f-a0e6-a6c0b5e3f1d2');
      const pages = await client.query('SELECT slug FROM pages ORDER BY slug');
      expect(pages.rows.map((r) => r.slug)).toEqual(['cookie-policy', 'privacy-policy', 'terms-of-service']);
    } finally {
      await client.end();
    }
  });
});

describeEachDatabase('setup wizard when finishing fails halfway', (kind) => {
  const faults = new WriteFaults();
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ database: kind, installed: false, plugins: [faults] });
  });
  afterAll(() => t.close());

  it('finishes the installation whole or not at all: the wizard can be finished again with the same address', async () => {
    const agent = await wizardAgent(t);
    // Struck after each of its writes in turn: the claim, the admin's row and settings, the
    // installation's settings, the setup tokens' end (the sign-in's writes come after it).
    for (const after of [1, 2, 3, 4, 5]) {
      let answer = 0;
      await faults.run(after, 'throw', async () => {
        answer = (await agent.post('/api/setup/admin-setup', admin)).statusCode;
      });
      expect(answer, `after write ${after}`).toBe(500);
      expect(await t.deps.database.db.selectFrom('users').select('email').execute()).toEqual([]);
      expect(await t.deps.setup.isInstalled()).toBe(false);
    }
    const again = await agent.post('/api/setup/admin-setup', admin);
    expect(again.statusCode, again.body).toBe(201);
  });
});

describeEachDatabase('setup wizard under concurrent admin-setup', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ database: kind, installed: false });
  });
  afterAll(() => t.close());

  it('creates exactly one admin', async () => {
    const answers = await Promise.all(
      ['first', 'second', 'third'].map(async (who) =>
        (await wizardAgent(t)).post('/api/setup/admin-setup', { ...admin, email: `${who}@example.test` }),
      ),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 410, 410]);
    const admins = await t.deps.database.db.selectFrom('users').select('email').execute();
    expect(admins).toHaveLength(1);
  });
});

describe('setup wizard with DATABASE_URL set', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ database: 'sqlite', installed: false, databasePinned: true });
  });
  afterAll(() => t.close());

  it('refuses to switch away from the database the environment fixes', async () => {
    const agent = await wizardAgent(t);
    const res = await agent.post('/api/setup/database', {
      connection: 'pgsql',
      host: '127.0.0.1',
      database: 'other',
      username: 'postgres',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.connection).toEqual(['The database is set by DATABASE_URL; change it there.']);
    expect(t.deps.database.dialect).toBe('sqlite');
    expect(existsSync(path.join(t.dataDir, 'database.json'))).toBe(false);
  });

  it('accepts the same kind of database and leaves the choice to the environment', async () => {
    const res = await (await wizardAgent(t)).post('/api/setup/database', { connection: 'sqlite' });
    expect(res.statusCode).toBe(200);
    expect(existsSync(path.join(t.dataDir, 'database.json'))).toBe(false);
  });
});

describe('app-setup input', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ installed: false });
  });
  afterAll(() => t.close());

  it('refuses a yes/no flag sent as text rather than reading "false" as on', async () => {
    const res = await (
      await wizardAgent(t)
    ).post('/api/setup/app-setup', {
      title: 'Studio',
      contactEmail: 'hello@studio.test',
      registration: 'false',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.registration).toBeDefined();
    expect(await t.deps.settings.get('registration')).toBe(true);
  });
});

describe('environment step against an SMTP server that requires sign-in', () => {
  let t: TestApp;
  let smtp: SmtpPeer;
  beforeAll(async () => {
    smtp = await new SmtpPeer({ user: 'mailer', pass: 'right' }).start();
    t = await createTestApp({ installed: false });
    // A reset request's mail leaves through a job.
    t.deps.jobs.startWorker({ definitions: authJobDefinitions, services: t.deps });
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });

  const environment = (url: string) => ({
    storage: { driver: 'local' },
    mail: { driver: 'smtp', url },
    broadcasting: { driver: 'null' },
  });

  it('refuses wrong credentials with the server reason under mail', async () => {
    const res = await (
      await wizardAgent(t)
    ).post('/api/setup/environment-setup', environment(`smtp://mailer:wrong@127.0.0.1:${smtp.port}`));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.mail[0]).toMatch(/^mail: .*Invalid username or password/);
  });

  it('accepts the right credentials and sends through them afterwards', async () => {
    const agent = await wizardAgent(t);
    const url = `smtp://mailer:right@127.0.0.1:${smtp.port}`;
    expect((await agent.post('/api/setup/environment-setup', environment(url))).statusCode).toBe(200);
    await agent.post('/api/setup/admin-setup', admin);
    await new TestAgent(t.app).post('/api/password/recover', { email: admin.email });
    const mail = await smtp.waitFor(admin.email);
    expect(mail.subject).toContain('Reset your');
  });
});
