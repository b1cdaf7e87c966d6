import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from './support/each-database';
import { signedInAgent } from './support/factories';
import { createTestApp, type TestApp } from './support/test-app';
import { multipartBody, uploaded } from './files/files-harness';

describeEachDatabase('method marker on multipart forms', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ database: kind });
  });
  afterAll(() => t.close());

  async function ownerWithTrashedFile() {
    const { agent } = await signedInAgent(t.app);
    const file = await uploaded(agent, Buffer.from('kept in the trash'), { name: 'draft.txt' });
    const removed = await agent.post('/api/remove', {
      items: [{ id: file.id, type: 'file', force_delete: false }],
    });
    expect(removed.statusCode).toBe(204);
    const trashed = async () => (await agent.get('/api/browse/trash/all')).json().data.length as number;
    expect(await trashed()).toBe(1);
    return { agent, trashed };
  }

  it('refuses a multipart POST to a delete route, with or without _method among its fields', async () => {
    const { agent, trashed } = await ownerWithTrashedFile();
    for (const fields of [[], [{ field: '_method', value: 'delete' }]]) {
      const { payload, headers } = multipartBody(fields);
      const res = await agent.post('/api/trash/dump', payload, { headers });
      expect(res.statusCode, JSON.stringify(fields)).toBe(405);
      expect(res.json().code).toBe('method_not_allowed');
    }
    expect(await trashed()).toBe(1);

    expect((await agent.post('/api/trash/dump', { _method: 'delete' })).statusCode).toBe(204);
    expect(await trashed()).toBe(0);
  });

  it('keeps multipart uploads to real POST routes working', async () => {
    const { agent } = await signedInAgent(t.app);
    const file = await uploaded(agent, Buffer.from('hello'), { name: 'hello.txt' });
    expect(file.type).toBe('file');
  });
});
