import { PublicConfig } from '@atelier/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipartBody } from '../files/files-harness';
import { TestAgent } from '../support/agent';
import type { TestAgent as Agent } from '../support/agent';
import { describeEachDatabase } from '../support/each-database';
import { createUser, signedInAgent } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';

const png = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 4, background } })
    .png()
    .toBuffer();

describeEachDatabase("the instance's brand", (database) => {
  let t: TestApp;
  let admin: Agent;
  let member: Agent;

  beforeAll(async () => {
    t = await createTestApp({ database });
    ({ agent: admin } = await signedInAgent(t.app, (await createUser(t.deps, { role: 'admin' })).user));
    ({ agent: member } = await signedInAgent(t.app));
  });
  afterAll(() => t.close());

  const config = async () => PublicConfig.parse((await new TestAgent(t.app).get('/api/config')).json());
  const save = (agent: Agent, settings: Record<string, unknown>) =>
    agent.post('/api/admin/settings', { settings });
  const upload = async (agent: Agent, name: string, data: Buffer) => {
    const { payload, headers } = multipartBody([
      { field: 'name', value: name },
      { file: 'image', filename: 'logo.png', data },
    ]);
    return agent.post('/api/admin/settings/image', payload, { headers });
  };

  describe('accent colour', () => {
    it('is taken as #rrggbb, answered to every visitor in the config, and cleared with null', async () => {
      expect((await config()).app.accent).toBeNull();
      expect((await save(admin, { app_accent_color: ' #2563EB ' })).statusCode).toBe(204);
      expect((await config()).app.accent).toBe('#2563eb');
      expect((await admin.get('/api/admin/settings?group=appearance')).json()).toMatchObject({
        app_accent_color: '#2563eb',
      });
      expect((await save(admin, { app_accent_color: null })).statusCode).toBe(204);
      expect((await config()).app.accent).toBeNull();
    });

    it('refuses what is no colour with a 422 naming it, and keeps the colour it had', async () => {
      await save(admin, { app_accent_color: '#16a34a' });
      try {
        for (const bad of ['red', '#fff', '#12345g', 'rgb(0,0,0)', '#2563eb80', 42, '']) {
          const answer = await save(admin, { app_accent_color: bad, app_title: 'Half applied' });
          expect(answer.statusCode).toBe(422);
          expect(Object.keys(answer.json().errors)).toEqual(['app_accent_color']);
        }
        const after = await config();
        expect(after.app.accent).toBe('#16a34a');
        expect(after.app.name).not.toBe('Half applied');
      } finally {
        await save(admin, { app_accent_color: null });
      }
    });

    it('may be set by an admin only', async () => {
      expect((await save(member, { app_accent_color: '#e11d48' })).statusCode).toBe(403);
      expect((await new TestAgent(t.app).post('/api/admin/settings', { settings: {} })).statusCode).toBe(401);
      expect((await config()).app.accent).toBeNull();
    });
  });

  it("says maintenance in the instance's name", async () => {
    await save(admin, { app_title: 'Studio North', maintenance: true });
    try {
      const closed = await member.get('/api/browse/folders/all');
      expect(closed.statusCode).toBe(503);
      expect(closed.json().message).toBe('Studio North is down for maintenance. Please come back soon.');
    } finally {
      await save(admin, { app_title: 'Atelier', maintenance: false });
    }
  });

  describe('logos for the dark theme', () => {
    it('are uploaded beside the light ones, served to anyone and removed on their own', async () => {
      const light = await upload(admin, 'app_logo_horizontal', await png(800, 200, '#111111ff'));
      const dark = await upload(admin, 'app_logo_horizontal_dark', await png(800, 200, '#eeeeeeff'));
      const square = await upload(admin, 'app_logo_dark', await png(600, 600, '#eeeeeeff'));
      expect([light.statusCode, dark.statusCode, square.statusCode]).toEqual([200, 200, 200]);
      const { app } = await config();
      expect(app).toMatchObject({
        logo_horizontal: light.json().url,
        logo_horizontal_dark: dark.json().url,
        logo_dark: square.json().url,
      });
      const served = await new TestAgent(t.app).get(app.logo_horizontal_dark!);
      expect(served.statusCode).toBe(200);
      expect(await sharp(served.rawPayload).metadata()).toMatchObject({ format: 'png', width: 800 });

      expect((await save(admin, { app_logo_horizontal_dark: null })).statusCode).toBe(204);
      const after = (await config()).app;
      expect(after.logo_horizontal_dark).toBeNull();
      expect(after.logo_horizontal).toBe(light.json().url);
      expect((await new TestAgent(t.app).get(dark.json().url)).statusCode).toBe(404);
    });

    it('may be uploaded by an admin only, and cannot be pointed at another object by name', async () => {
      expect((await upload(member, 'app_logo_dark', await png(64, 64, '#000000ff'))).statusCode).toBe(403);
      const named = await save(admin, { app_logo_dark: 'some-avatar-key' });
      expect(named.statusCode).toBe(422);
      expect(Object.keys(named.json().errors)).toEqual(['app_logo_dark']);
    });
  });
});
