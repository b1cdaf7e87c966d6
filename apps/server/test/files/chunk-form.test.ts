import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestAgent } from '../support/agent';
import { describeEachDatabase } from '../support/each-database';
import { signedInAgent } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';

/** A one-chunk upload form under the given boundary, declared in the header as `declared`. */
function form(boundary: string, declared: string | null) {
  const body =
    `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nnote.txt\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="is_last_chunk"\r\n\r\n1\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="chunk"; filename="k-note.txt.part"\r\n` +
    `Content-Type: application/octet-stream\r\n\r\nhello\r\n--${boundary}--\r\n`;
  const contentType = declared === null ? 'multipart/form-data' : `multipart/form-data; boundary=${declared}`;
  return { body, headers: { 'content-type': contentType } };
}

describeEachDatabase('chunk forms', (kind) => {
  let t: TestApp;
  let agent: TestAgent;

  beforeAll(async () => {
    t = await createTestApp({ database: kind });
    ({ agent } = await signedInAgent(t.app));
  });
  afterAll(() => t.close());

  // The form parser throws a plain error on these, which answered 500.
  it.each([
    ['no boundary', null],
    ['a boundary longer than the 70 characters RFC 2046 allows', 'b'.repeat(300)],
  ])('refuses a form with %s as a bad request', async (_case, declared) => {
    for (const url of ['/api/upload/chunks', '/api/projects/upload/chunks']) {
      const { body, headers } = form('b'.repeat(300), declared);
      const answer = await agent.post(url, body, { headers });
      expect(answer.statusCode, url).toBe(400);
      expect(answer.json(), url).toMatchObject({ code: 'bad_request' });
    }
  });

  it('reads a form whose boundary has the longest length allowed', async () => {
    const boundary = 'b'.repeat(70);
    const { body, headers } = form(boundary, boundary);
    const answer = await agent.post('/api/upload/chunks', body, { headers });
    expect(answer.statusCode).toBe(201);
    expect(answer.json().data.attributes).toMatchObject({ name: 'note.txt' });
  });
});
