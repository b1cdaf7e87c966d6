import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { describeEachDatabase } from '../support/each-database';
import { SESSION_COOKIE } from '../../src/plugins/session.plugin';
import { createSession, signedInAgent } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';
import { uploaded } from '../files/files-harness';
import { createShare } from './sharing-harness';

/** Large enough that a zip nobody reads stays on its way (socket buffers hold a few MB). */
const BIG = 24 * 1024 * 1024;

interface HeldResponse {
  status: number;
  retryAfter: string | undefined;
  /** The client goes away in the middle of the zip. */
  leave(): void;
  /** Reads the rest and resolves once the body ended. */
  drain(): Promise<void>;
}

describeEachDatabase('zips of a share link at the same time', (kind) => {
  let t: TestApp;
  let origin: string;
  let folderLink: string;
  let fileLink: string;
  let fileId: string;
  let projectId: string;
  let sessionCookie: string;
  const open: http.ClientRequest[] = [];

  beforeAll(async () => {
    // Two clients a link, two zips an address; the proxy in front names the client.
    t = await createTestApp({ database: kind, env: { TRUST_PROXY: '1' } });
    const { agent, user } = await signedInAgent(t.app);
    sessionCookie = `${SESSION_COOKIE}=${await createSession(t.deps, user)}`;
    const folder = (await agent.post('/api/create-folder', { name: 'Catalogue' })).json().data.id;
    const file = await uploaded(agent, randomBytes(BIG), {
      name: 'scan.bin',
      parentId: folder,
      chunkSize: 8 * 1024 * 1024,
    });
    folderLink = (await createShare(agent, { id: folder, type: 'folder', permission: 'visitor' })).token;
    fileId = file.id;
    fileLink = (await createShare(agent, { id: file.id, type: 'file', permission: 'visitor' })).token;
    projectId = (await agent.post('/api/create-project', { project_name: 'Rings' })).json().id;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const request of open) request.destroy();
    await t.close();
  });

  /** Asks for a zip and stops reading once the answer's head arrived. */
  const get = (url: string, headers: Record<string, string>) =>
    new Promise<HeldResponse>((resolve, reject) => {
      const request = http.get(`${origin}${url}`, { headers });
      open.push(request);
      request.on('error', () => undefined);
      request.once('error', reject);
      request.on('response', (response) => {
        response.pause();
        resolve({
          status: response.statusCode!,
          retryAfter: response.headers['retry-after'],
          leave: () => request.destroy(),
          drain: () =>
            new Promise<void>((done) => {
              response.on('end', done).resume();
            }),
        });
      });
    });

  /** A link's zip from `address`. */
  const zip = (token: string, address: string) =>
    get(`/api/sharing/zip/${token}`, { 'x-forwarded-for': address });

  const ping = async () => (await fetch(`${origin}/api/ping`)).status;

  it('lets two zips a link and two an address run, answers 429 with Retry-After to more, and frees a slot when a client leaves', async () => {
    const first = await zip(folderLink, '203.0.113.1');
    const second = await zip(folderLink, '203.0.113.1');
    expect([first.status, second.status]).toEqual([200, 200]);

    // The link is busy for everyone, and this address is busy on every link.
    const otherAddress = await zip(folderLink, '203.0.113.2');
    const otherLink = await zip(fileLink, '203.0.113.1');
    for (const refused of [otherAddress, otherLink]) {
      expect(refused.status).toBe(429);
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
      await refused.drain();
    }
    // Another address on another link is not held back, and the server answers the rest meanwhile.
    const elsewhere = await zip(fileLink, '203.0.113.3');
    expect(elsewhere.status).toBe(200);
    expect(await ping()).toBe(200);

    // A client that goes away gives its slot back (once the server has seen the socket close).
    first.leave();
    let again: HeldResponse;
    for (;;) {
      again = await zip(folderLink, '203.0.113.2');
      if (again.status === 200) break;
      await again.drain();
    }
    // A zip that is read to its end gives its slot back too.
    await elsewhere.drain();
    for (const held of [second, again]) held.leave();
    for (let i = 0; i < 3; i++) {
      let done: HeldResponse;
      do {
        done = await zip(fileLink, '203.0.113.4');
        await done.drain();
      } while (done.status !== 200);
    }
  });

  it('answers a HEAD with the headers alone, reading no file for a zip nobody gets', async () => {
    const read = vi.spyOn(t.deps.blockStore, 'read');
    try {
      const heads = await Promise.all(
        ['203.0.113.7', '203.0.113.8'].map((address) =>
          fetch(`${origin}/api/sharing/zip/${folderLink}`, {
            method: 'HEAD',
            headers: { 'x-forwarded-for': address },
          }),
        ),
      );
      expect(heads.map((head) => [head.status, head.headers.get('content-type')])).toEqual([
        [200, 'application/zip'],
        [200, 'application/zip'],
      ]);
      // A drained archive would open the file within a few turns of the answer's end.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(read).not.toHaveBeenCalled();
    } finally {
      read.mockRestore();
    }
  });

  it('holds a signed-in account to two zips of its own files at once, from any address', async () => {
    const mine = (address: string) =>
      get(`/api/zip?items=${fileId}|file`, { cookie: sessionCookie, 'x-forwarded-for': address });
    const held = [await mine('198.51.100.1'), await mine('198.51.100.2')];
    expect(held.map((response) => response.status)).toEqual([200, 200]);
    const third = await mine('198.51.100.3');
    expect(third.status).toBe(429);
    await third.drain();
    // The studio's zips (a project's outputs, a gallery day) count among the account's.
    for (const url of [
      `/api/outputZip?project_id=${projectId}`,
      '/api/galleryZip?project_id=all&date=2026-01-01',
    ]) {
      const studio = await get(url, { cookie: sessionCookie, 'x-forwarded-for': '198.51.100.4' });
      expect(studio.status, url).toBe(429);
      await studio.drain();
    }
    for (const response of held) response.leave();
    let after: HeldResponse;
    do {
      after = await mine('198.51.100.3');
      await after.drain();
    } while (after.status !== 200);
  });
});
