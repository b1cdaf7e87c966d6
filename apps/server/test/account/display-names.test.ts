import { afterAll, beforeAll, expect, it } from 'vitest';
import { TestAgent } from '../support/agent';
import { describeEachDatabase } from '../support/each-database';
import { createUser, signedInAgent } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';

/** Characters that change how the text around a name reads: C0 and C1 controls, and bidi controls. */
const HIDDEN = [
  '\u0007',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u009b',
  '\u202e',
  '\u202d',
  '\u2066',
  '\u2069',
  '\u200e',
  '\u200f',
  '\u061c',
];
const REFUSAL = 'A name cannot contain control characters or text-direction marks.';

describeEachDatabase('display names', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ database: kind });
  });
  afterAll(() => t.close());

  it('refuses control characters and direction overrides at registration, with a field error', async () => {
    for (const [i, character] of HIDDEN.entries()) {
      const res = await new TestAgent(t.app, `10.9.0.${i + 1}`).post('/api/register', {
        name: `Mallory${character}gpj.exe`,
        email: `mallory-${i}@example.test`,
        password: 'a long password',
        password_confirmation: 'a long password',
      });
      expect(res.statusCode, JSON.stringify(character)).toBe(422);
      expect(res.json().errors.name).toEqual([REFUSAL]);
    }
    expect(await t.deps.users.findByEmail('mallory-0@example.test')).toBeUndefined();
  });

  it('refuses them in the name settings, and keeps the name as it was', async () => {
    const { agent, user } = await signedInAgent(
      t.app,
      (await createUser(t.deps, { name: 'Plain Name' })).user,
    );
    for (const setting of ['name', 'first_name', 'last_name']) {
      for (const character of HIDDEN) {
        const res = await agent.patch('/api/user/settings', { name: setting, value: `Eve${character}lyn` });
        expect(res.statusCode, `${setting} ${JSON.stringify(character)}`).toBe(422);
        expect(res.json().errors.value).toEqual([REFUSAL]);
      }
    }
    expect((await t.deps.users.findById(user.id))?.name).toBe('Plain Name');
    // Letters of every script, and the joiners some of them need, stay welcome.
    const accepted = await agent.patch('/api/user/settings', {
      name: 'name',
      value: 'Zoë ناصر नमस्ते 👩\u200d💻',
    });
    expect(accepted.statusCode, accepted.body).toBe(204);
    expect((await t.deps.users.findById(user.id))?.name).toBe('Zoë ناصر नमस्ते 👩\u200d💻');
  });

  it('refuses them in an account an admin creates', async () => {
    const admin = await signedInAgent(t.app, (await createUser(t.deps, { role: 'admin' })).user);
    const res = await admin.agent.post('/api/admin/users', {
      name: 'Nina\u202eexe.txt',
      email: 'nina-rtl@example.test',
      password: 'a long password',
      role: 'user',
      max_storage_amount: 1,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.name).toEqual([REFUSAL]);
  });
});
