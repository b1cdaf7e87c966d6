import { afterAll, beforeAll, expect, it } from 'vitest';
import { chunkRequest } from './files/files-harness';
import type { TestAgent } from './support/agent';
import { describeEachDatabase } from './support/each-database';
import { signedInAgent } from './support/factories';
import { createTestApp, type TestApp } from './support/test-app';

const NUL = 'a\u0000b';

describeEachDatabase('text holding U+0000', (kind) => {
  let t: TestApp;
  let agent: TestAgent;
  let projectId: string;

  beforeAll(async () => {
    t = await createTestApp({ database: kind });
    ({ agent } = await signedInAgent(t.app));
    projectId = (await agent.post('/api/create-project', { project_name: 'Rings' })).json().id;
  });
  afterAll(() => t.close());

  // PostgreSQL cannot take U+0000 in text: each of these answered 500 there (found by the schema fuzzer).
  it.each([
    ['a path parameter', 'GET', '/api/pages/a%00b', undefined, 'slug'],
    ['a query parameter', 'GET', '/api/search?query=a%00b', undefined, 'query'],
    ['a body field', 'PATCH', '/api/user/settings', { name: 'first_name', value: NUL }, 'value'],
    ['an e-mail', 'POST', '/api/login', { email: 'a\u0000@example.test', password: 'x' }, 'email'],
    ['an item of a list', 'POST', '/api/share/revoke', { tokens: ['t', NUL], _method: 'delete' }, 'tokens.1'],
  ] as const)('refuses it in %s as invalid', async (_place, method, url, body, field) => {
    const answer = await agent.request(method, url, body);
    expect(answer.statusCode).toBe(422);
    expect(answer.json()).toMatchObject({
      code: 'validation_failed',
      errors: { [field]: [expect.any(String)] },
    });
  });

  it('refuses it in the file name of an uploaded chunk (the upload key)', async () => {
    const options = { name: 'note.txt', key: `${NUL}.part`, last: true };
    const answer = await chunkRequest(agent, Buffer.from('hello'), options);
    expect(answer.statusCode).toBe(422);
    expect(answer.json()).toMatchObject({ errors: { chunk: [expect.any(String)] } });
  });

  it('refuses it before anything is stored', async () => {
    const items = () => t.deps.database.db.selectFrom('items').select('id').execute();
    const before = await items();
    const answer = await agent.post('/api/create-project', { project_name: 'Ok', description: NUL });
    expect(answer.statusCode).toBe(422);
    expect(await items()).toEqual(before);
    const gallery = await agent.get(`/api/browse/projects/gallery/${projectId}?search=a%00b`);
    expect(gallery.statusCode).toBe(422);
  });
});
