import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { accentPalette } from '@atelier/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { authJobDefinitions } from '../src/modules/auth/auth.jobs';
import { SESSION_COOKIE } from '../src/plugins/session.plugin';
import { TestAgent } from './support/agent';
import { describeEachDatabase } from './support/each-database';
import { createUser, DEFAULT_PASSWORD, signedInAgent } from './support/factories';
import { bodyOf, SmtpPeer } from './support/smtp-peer';
import { createTestApp, type TestApp } from './support/test-app';

/** The link the e-mail carries, e.g. http://atelier.test/create-new-password?token=…&email=… */
function linkIn(text: string): URL {
  const match = /(http:\/\/atelier\.test\/\S+)/.exec(text);
  if (!match) throw new Error(`no link in: ${text}`);
  return new URL(match[1]!);
}

describeEachDatabase('mail through a real SMTP peer', (kind) => {
  let t: TestApp;
  let smtp: SmtpPeer;
  beforeAll(async () => {
    smtp = await new SmtpPeer().start();
    t = await createTestApp({
      database: kind,
      env: { SMTP_URL: smtp.url, MAIL_FROM: 'Atelier <robot@atelier.test>' },
    });
    // A reset request's mail leaves through a job.
    t.deps.jobs.startWorker({ definitions: authJobDefinitions, services: t.deps });
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });

  it('resets a forgotten password with a single-use link', async () => {
    const { user } = await createUser(t.deps, { email: 'forgetful@example.test' });
    const { agent: otherDevice } = await signedInAgent(t.app, user);
    const agent = new TestAgent(t.app);

    const recover = await agent.post('/api/password/recover', { email: 'forgetful@example.test' });
    expect(recover.statusCode).toBe(200);
    const mail = await smtp.waitFor('forgetful@example.test');
    expect(mail.from).toBe('robot@atelier.test');
    expect(mail.subject).toContain('Reset your');
    const link = linkIn(mail.text);
    expect(link.pathname).toBe('/create-new-password');
    expect(link.searchParams.get('email')).toBe('forgetful@example.test');
    const token = link.searchParams.get('token')!;

    const reset = await agent.post('/api/password/reset', {
      token,
      email: 'forgetful@example.test',
      password: 'a brand new secret',
      password_confirmation: 'a brand new secret',
    });
    expect(reset.statusCode).toBe(200);

    expect(
      (await agent.post('/api/login', { email: user.email, password: DEFAULT_PASSWORD })).statusCode,
    ).toBe(422);
    expect(
      (await agent.post('/api/login', { email: user.email, password: 'a brand new secret' })).statusCode,
    ).toBe(200);
    // Sessions opened with the old password are gone.
    expect((await otherDevice.get('/api/user')).statusCode).toBe(401);

    const replay = await agent.post('/api/password/reset', {
      token,
      email: 'forgetful@example.test',
      password: 'attacker password',
      password_confirmation: 'attacker password',
    });
    expect(replay.statusCode).toBe(422);
    expect(replay.json().errors.token).toBeDefined();
  });

  it('refuses an expired link', async () => {
    const { user } = await createUser(t.deps, { email: 'late@example.test' });
    await new TestAgent(t.app).post('/api/password/recover', { email: user.email });
    const token = linkIn((await smtp.waitFor(user.email)).text).searchParams.get('token')!;
    await t.deps.database.db
      .updateTable('password_resets')
      .set({ expires_at: '2020-01-01T00:00:00.000Z' })
      .where('user_id', '=', user.id)
      .execute();
    const res = await new TestAgent(t.app).post('/api/password/reset', {
      token,
      email: user.email,
      password: 'another secret',
      password_confirmation: 'another secret',
    });
    expect(res.statusCode).toBe(422);
  });

  it('does not let a link reset another account', async () => {
    const { user: owner } = await createUser(t.deps, { email: 'owner@example.test' });
    const { user: target } = await createUser(t.deps, { email: 'target@example.test' });
    await new TestAgent(t.app).post('/api/password/recover', { email: owner.email });
    const token = linkIn((await smtp.waitFor(owner.email)).text).searchParams.get('token')!;
    const res = await new TestAgent(t.app).post('/api/password/reset', {
      token,
      email: target.email,
      password: 'hijacked secret',
      password_confirmation: 'hijacked secret',
    });
    expect(res.statusCode).toBe(422);
    expect(
      (await new TestAgent(t.app).post('/api/login', { email: target.email, password: DEFAULT_PASSWORD }))
        .statusCode,
    ).toBe(200);
  });

  it('answers the same for an unknown address and sends nothing', async () => {
    const before = smtp.messages.length;
    const res = await new TestAgent(t.app).post('/api/password/recover', { email: 'nobody@example.test' });
    expect(res.statusCode).toBe(200);
    // The jobs run in order: once a later request's mail is out, the unknown address's job has run.
    const { user } = await createUser(t.deps, { email: 'somebody@example.test' });
    await new TestAgent(t.app).post('/api/password/recover', { email: user.email });
    await smtp.waitFor(user.email);
    expect(smtp.messages.filter((m) => m.to.includes('nobody@example.test'))).toHaveLength(0);
    expect(smtp.messages.length).toBe(before + 1);
  });

  it('verifies the e-mail address before the first sign-in when verification is on', async () => {
    await t.deps.settings.set({ email_verification: true });
    try {
      const agent = new TestAgent(t.app);
      const res = await agent.post('/api/register', {
        name: 'Vera',
        email: 'vera@example.test',
        password: 'verified secret',
        password_confirmation: 'verified secret',
      });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({ verify: true });
      expect(agent.cookie(SESSION_COOKIE)).toBeUndefined();

      const blocked = await agent.post('/api/login', {
        email: 'vera@example.test',
        password: 'verified secret',
      });
      expect(blocked.statusCode).toBe(403);
      expect(blocked.json().code).toBe('email_not_verified');

      const link = linkIn((await smtp.waitFor('vera@example.test')).text);
      const visit = await agent.get(link.pathname);
      expect(visit.statusCode).toBe(302);
      expect(visit.headers.location).toBe('/successfully-verified');

      expect(
        (await agent.post('/api/login', { email: 'vera@example.test', password: 'verified secret' }))
          .statusCode,
      ).toBe(200);
      const again = await agent.get(link.pathname);
      expect(again.headers.location).toBe('/sign-in?verification=invalid');
    } finally {
      await t.deps.settings.set({ email_verification: false });
    }
  });

  it("lays every mail out in the instance's name, logo and accent, the logo an address on the instance", async () => {
    const logo = await sharp({ create: { width: 300, height: 80, channels: 4, background: '#123456ff' } })
      .png()
      .toBuffer();
    const { user: admin } = await createUser(t.deps, { role: 'admin' });
    const logoUrl = await t.deps.settingsImages.replace(admin.id, 'app_logo_horizontal', logo);
    await t.deps.settings.set({ app_title: 'Studio North', app_accent_color: '#ffd400' });
    try {
      const { user } = await createUser(t.deps, { email: 'branded@example.test' });
      await new TestAgent(t.app).post('/api/password/recover', { email: user.email });
      const mail = await smtp.waitFor(user.email);

      expect(mail.subject).toBe('Reset your Studio North password');
      expect(mail.text).toContain('your Studio North account');
      const html = mail.html!;
      expect(html).toContain(`<img src="http://atelier.test${logoUrl}" alt="Studio North"`);
      expect(html).not.toMatch(/src="data:/);
      // The yellow as the light theme makes it readable: a button of it with its label's colour.
      const { accent, onAccent } = accentPalette('#ffd400').light;
      expect(accent).not.toBe('#ffd400');
      expect(html).toContain(`background:${accent}`);
      expect(html).toContain(`color:${onAccent}`);
      expect(html).toContain('>Choose a new password</a>');
      expect(html).toContain('Sent by Studio North · atelier.test');
      // The link of the button is the text's own link, and the logo's address answers the image.
      const link = linkIn(mail.text);
      expect(html).toContain(`href="${link.href.replace(/&/g, '&amp;')}"`);
      const served = await t.app.inject({ method: 'GET', url: logoUrl });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/png');
    } finally {
      await t.deps.settings.set({ app_title: 'Atelier', app_accent_color: null, app_logo_horizontal: null });
    }
  });

  it('mails a contact message to the contact address', async () => {
    await t.deps.settings.set({ contact_email: 'team@atelier.test' });
    const res = await new TestAgent(t.app).post('/api/contact', {
      email: 'visitor@example.test',
      message: 'Do you render SolidWorks files?',
    });
    expect(res.statusCode).toBe(204);
    const mail = await smtp.waitFor('team@atelier.test');
    expect(mail.text).toContain('Do you render SolidWorks files?');
    expect(mail.raw).toMatch(/^Reply-To: visitor@example\.test/m);
  });
});

describeEachDatabase('mail without SMTP', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ database: kind });
    t.deps.jobs.startWorker({ definitions: authJobDefinitions, services: t.deps });
  });
  afterAll(() => t.close());

  it('writes the message as an .eml file under DATA_DIR/mail', async () => {
    const { user } = await createUser(t.deps, { email: 'offline@example.test' });
    expect((await new TestAgent(t.app).post('/api/password/recover', { email: user.email })).statusCode).toBe(
      200,
    );
    const folder = path.join(t.dataDir, 'mail');
    const emls = () => (existsSync(folder) ? readdirSync(folder).filter((f) => f.endsWith('.eml')) : []);
    await vi.waitFor(() => expect(emls()).toHaveLength(1), { timeout: 10_000 });
    const files = emls();
    const eml = readFileSync(path.join(folder, files[0]!), 'utf8');
    expect(eml).toMatch(/^To: offline@example\.test/m);
    expect(eml).toMatch(/^Subject: Reset your Atelier password/m);
    expect(linkIn(bodyOf(eml)).searchParams.get('email')).toBe('offline@example.test');
  });
});
