import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { runSetup } from '../src/cli/setup';
import { openPreparedDatabase } from '../src/db/prepare';
import { parseEnv } from '../src/env';
import { TestAgent } from './support/agent';
import { createScratchDatabase, type ScratchDatabase } from './support/databases';
import { describeEachDatabase } from './support/each-database';

describeEachDatabase('npm run setup', (kind) => {
  let dataDir: string;
  let scratch: ScratchDatabase;
  let source: NodeJS.ProcessEnv;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'atelier-cli-'));
    scratch = await createScratchDatabase(kind);
    source = { DATA_DIR: dataDir, DATABASE_URL: scratch.url, APP_URL: 'http://atelier.test' };
  });
  afterAll(async () => {
    await scratch.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const args = [
    '--admin-email',
    'ops@example.test',
    '--admin-password',
    'operator secret',
    '--title',
    'Ops Studio',
    '--registration',
    'no',
  ];

  it('installs with an admin who can sign in', async () => {
    expect(await runSetup(args, source)).toMatch(/is installed .* as ops@example\.test/);

    const app = await buildApp({
      env: parseEnv({ ...source, LOG_LEVEL: 'silent' }),
      database: await openPreparedDatabase(scratch.url),
      databasePinned: true,
      logger: false,
    });
    try {
      const agent = new TestAgent(app);
      const config = (await agent.get('/api/config')).json();
      expect(config).toMatchObject({
        installation: 'installation-done',
        registration: false,
        app: { name: 'Ops Studio' },
      });
      const login = await agent.post('/api/login', {
        email: 'ops@example.test',
        password: 'operator secret',
      });
      expect(login.statusCode).toBe(200);
      expect(login.json().data.attributes.role).toBe('admin');
    } finally {
      await app.close();
    }
  });

  it('changes nothing when run again', async () => {
    const again = await runSetup([...args.slice(0, 4), '--title', 'Renamed'], source);
    expect(again).toMatch(/already installed/);
    const database = await openPreparedDatabase(scratch.url);
    try {
      const admins = await database.db.selectFrom('users').select('email').execute();
      expect(admins).toEqual([{ email: 'ops@example.test' }]);
      const title = await database.db
        .selectFrom('settings')
        .select('value')
        .where('key', '=', 'app_title')
        .executeTakeFirst();
      expect(JSON.parse(title!.value)).toBe('Ops Studio');
    } finally {
      await database.destroy();
    }
  });

  it('refuses a short password with a clear message', async () => {
    await expect(
      runSetup(['--admin-email', 'x@example.test', '--admin-password', 'short'], source),
    ).rejects.toThrow(/password/);
  });
});
