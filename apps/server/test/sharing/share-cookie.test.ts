import { afterAll, beforeAll, expect, it } from 'vitest';
import { shareSessionCookie } from '../../src/modules/sharing/sharing.routes';
import { describeEachDatabase } from '../support/each-database';
import { ownerActor } from '../../src/modules/files/files.access';
import { createUser } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';
import { anonymousAgent } from './sharing-harness';

describeEachDatabase('a share session over https', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ database: kind, env: { APP_URL: 'https://atelier.test' } });
  });
  afterAll(() => t.close());

  it('is a Secure cookie, lasting a day, and the link it gives is https', async () => {
    const { user } = await createUser(t.deps);
    const folder = await t.deps.files.createFolder(ownerActor(user.id), { name: 'Over TLS' });
    const link = (
      await t.deps.sharing.create(user.id, {
        id: folder.id,
        type: 'folder',
        permission: 'visitor',
        isPassword: true,
        password: 'tls secret',
        expiration: null,
      })
    ).attributes;
    expect(link.link).toBe(`https://atelier.test/share/${link.token}`);
    const visitor = await anonymousAgent(t.app);
    const res = await visitor.post(
      `/api/sharing/authenticate/${link.token}`,
      { password: 'tls secret' },
      { headers: { 'x-xsrf-token': visitor.cookie('__Host-XSRF-TOKEN')! } },
    );
    expect(res.statusCode).toBe(204);
    const cookie = res.cookies.find((c) => c.name === shareSessionCookie(link.token))!;
    expect(cookie).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax', path: '/' });
    const lifetime = new Date(cookie.expires!).getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(23 * 3_600_000);
    expect(lifetime).toBeLessThanOrEqual(24 * 3_600_000);
  });
});
