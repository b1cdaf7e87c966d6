import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Response } from 'light-my-request';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SESSION_COOKIE } from '../src/plugins/session.plugin';
import { TestAgent } from './support/agent';
import { describeEachDatabase } from './support/each-database';
import { createUser, DEFAULT_PASSWORD } from './support/factories';
import { createTestApp, type TestApp } from './support/test-app';

/** What a client can tell of an answer: its status, its body and the names of the cookies it sets. */
function visible(res: Response) {
  return { status: res.statusCode, body: res.json(), cookies: res.cookies.map((c) => c.name).sort() };
}

function mailsTo(t: TestApp, to: string): string[] {
  const folder = path.join(t.dataDir, 'mail');
  let files: string[] = [];
  try {
    files = readdirSync(folder);
  } catch {
    return [];
  }
  return files
    .map((file) => readFileSync(path.join(folder, file), 'utf8'))
    .filter((eml) => new RegExp(`^To: ${to.replace(/[.+]/g, '\\$&')}$`, 'm').test(eml));
}

describeEachDatabase('no account discovery', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ database: kind });
  });
  afterAll(() => t.close());
  afterEach(() => vi.restoreAllMocks());

  describe('the password-reset request', () => {
    /** The request as a client sends it, with what it did on the way to the answer. */
    async function recover(email: string) {
      const lookups = vi.spyOn(t.deps.users, 'findByEmail');
      const enqueued = vi.spyOn(t.deps.jobs, 'enqueue');
      const countResets = async () =>
        Number(
          (
            await t.deps.database.db
              .selectFrom('password_resets')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = await countResets();
      const res = await new TestAgent(t.app).post('/api/password/recover', { email });
      const work = {
        lookups: lookups.mock.calls.length,
        resetsStored: (await countResets()) - before,
        enqueued: enqueued.mock.calls.map(([definition, payload]) => [definition.id, payload]),
      };
      vi.restoreAllMocks();
      return { answer: visible(res), work };
    }

    it('does the same work for an account and for an unknown address, leaving the lookup and the mail to a job', async () => {
      const { user } = await createUser(t.deps, { email: 'known-reset@example.test' });
      const known = await recover(user.email);
      const unknown = await recover('unknown-reset@example.test');

      expect(known.answer).toEqual(unknown.answer);
      expect(known.answer.status).toBe(200);
      expect(known.work).toEqual({
        lookups: 0,
        resetsStored: 0,
        enqueued: [['auth.password-reset-mail', { email: 'known-reset@example.test' }]],
      });
      expect(unknown.work).toEqual({
        lookups: 0,
        resetsStored: 0,
        enqueued: [['auth.password-reset-mail', { email: 'unknown-reset@example.test' }]],
      });
    });
  });

  describe('registration while e-mail verification is on', () => {
    beforeAll(async () => {
      await t.deps.settings.set({ email_verification: true });
    });
    afterAll(async () => {
      await t.deps.settings.set({ email_verification: false });
    });

    const register = (email: string, password: string) =>
      new TestAgent(t.app).post('/api/register', {
        name: 'Someone',
        email,
        password,
        password_confirmation: password,
      });

    it('answers an address that has an account exactly like a new one, and mails its owner a note instead', async () => {
      const { user } = await createUser(t.deps, { email: 'taken-verify@example.test' });
      const fresh = await register('fresh-verify@example.test', 'a new secret');
      const taken = await register('taken-verify@example.test', 'an intruder secret');

      expect(visible(taken)).toEqual(visible(fresh));
      expect(visible(taken)).toEqual({ status: 201, body: { verify: true }, cookies: [] });
      expect(taken.cookies.map((c) => c.name)).not.toContain(SESSION_COOKIE);

      // The account is untouched: one row, the old password, and its owner is told.
      const rows = await t.deps.database.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'taken-verify@example.test')
        .execute();
      expect(rows).toEqual([{ id: user.id }]);
      const signIn = await new TestAgent(t.app).post('/api/login', {
        email: user.email,
        password: DEFAULT_PASSWORD,
      });
      expect(signIn.statusCode).toBe(200);
      const [note] = mailsTo(t, 'taken-verify@example.test');
      expect(note).toMatch(/already has an account/);
      expect(note).toContain('http://atelier.test/forgotten-password');
      expect(mailsTo(t, 'fresh-verify@example.test')).toHaveLength(1);
    });
  });
});
