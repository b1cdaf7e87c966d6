import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../jobs/support/wait-for';
import { connectSocket, recordEvents, type ClientSocket } from '../realtime/support/sockets';
import { createSession } from '../support/factories';
import { basic, startDavServer, type DavAccount, type DavTestServer } from './webdav-harness';

describe('WebDAV writes reach the web app’s open tabs', () => {
  let server: DavTestServer;
  let owner: DavAccount;
  const sockets: ClientSocket[] = [];

  beforeAll(async () => {
    server = await startDavServer('sqlite', 'local');
    owner = await server.account();
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.close();
  });
  afterAll(() => server.close());

  async function tab(account: DavAccount) {
    const socket = await connectSocket(server.origin, {
      session: await createSession(server.deps, account.user),
    });
    sockets.push(socket);
    return recordEvents(socket);
  }
  const dav = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
    fetch(`${server.origin}${path}`, {
      method,
      body,
      headers: { authorization: basic(owner.email, owner.password), ...headers },
    });

  it('tells the owner after each write, and nobody else; reads tell nobody', async () => {
    const events = await tab(owner);
    const bystander = await tab(await server.account());
    const changed = { event: 'items.changed', payload: { owner_id: owner.user.id } };

    expect((await dav('MKCOL', '/dav/files/Drafts/')).status).toBe(201);
    expect((await dav('PUT', '/dav/files/Drafts/note.txt', {}, 'hello')).status).toBe(201);
    expect(
      (
        await dav('MOVE', '/dav/files/Drafts/note.txt', {
          destination: `${server.origin}/dav/files/note.txt`,
        })
      ).status,
    ).toBe(201);
    expect((await dav('DELETE', '/dav/files/note.txt')).status).toBe(204);
    await waitFor('four changes', () => events.length >= 4);
    expect(events).toEqual([changed, changed, changed, changed]);

    expect((await dav('PROPFIND', '/dav/files/', { depth: '1' })).status).toBe(207);
    expect((await dav('MKCOL', '/dav/files/Marker/')).status).toBe(201);
    await waitFor('the marker’s change', () => events.length >= 5);
    // The PROPFIND between the two writes told nobody anything.
    expect(events).toHaveLength(5);
    expect(bystander).toEqual([]);
  });
});
