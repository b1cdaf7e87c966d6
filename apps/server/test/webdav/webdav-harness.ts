import type { AddressInfo } from 'node:net';
import type { UserRow } from '../../src/db/schema';
import type { Settings } from '../../src/modules/settings/settings.defaults';
import type { DatabaseKind } from '../support/databases';
import type { TestAgent } from '../support/agent';
import { createUser, signedInAgent, type UserOverrides } from '../support/factories';
import { createFilesTestApp, type FilesTestApp, type StorageKind } from '../files/files-harness';

export interface DavAccount {
  user: UserRow;
  email: string;
  /** An app password of the user: what every WebDAV client signs in with. */
  password: string;
}

export interface DavTestServer extends FilesTestApp {
  /** `http://127.0.0.1:{port}`: a real listening server, for litmus and rclone. */
  origin: string;
  account(overrides?: UserOverrides): Promise<DavAccount>;
}

/** The app listening on a loopback port, on the given database and storage driver. */
export async function startDavServer(
  database: DatabaseKind,
  storage: StorageKind,
  settings: Partial<Settings> = {},
): Promise<DavTestServer> {
  const t = await createFilesTestApp(database, storage, settings);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  return {
    ...t,
    origin: `http://127.0.0.1:${port}`,
    async account(overrides = {}) {
      const { user } = await createUser(t.deps, overrides);
      const { password } = await t.deps.appPasswords.create(user.id, { name: 'WebDAV' });
      return { user, email: user.email, password };
    },
  };
}

/** `Authorization: Basic …` for an e-mail and password. */
export function basic(email: string, password: string): string {
  return `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`;
}

/** A WebDAV method, for `app.inject` (which types only HTTP's own). */
export type DavMethod =
  'GET' | 'PUT' | 'DELETE' | 'OPTIONS' | 'PROPFIND' | 'PROPPATCH' | 'MKCOL' | 'COPY' | 'MOVE' | 'LOCK';

/** Someone signed in on the web and holding an app password; `auth` is their Basic header. */
export interface DavPerson {
  user: UserRow;
  agent: TestAgent;
  auth: string;
}

/** People who use WebDAV, and calls of any method with their `auth`, to an app under test. */
export function davCalls(t: FilesTestApp) {
  return {
    async person(overrides: UserOverrides = {}): Promise<DavPerson> {
      const { user } = await createUser(t.deps, overrides);
      const { password } = await t.deps.appPasswords.create(user.id, { name: 'WebDAV' });
      return { user, agent: (await signedInAgent(t.app, user)).agent, auth: basic(user.email, password) };
    },
    dav(
      auth: string,
      method: DavMethod,
      url: string,
      payload?: string | Buffer,
      headers: Record<string, string> = {},
    ) {
      return t.app.inject({
        method: method as 'GET',
        url,
        payload,
        headers: { authorization: auth, ...headers },
      });
    },
  };
}

/** Makes someone a member of a team folder, as an accepted invitation does. */
export async function addTeamMember(
  t: FilesTestApp,
  folderId: string,
  userId: string,
  permission: 'can_edit' | 'can_view',
): Promise<void> {
  await t.deps.database.db
    .insertInto('team_members')
    .values({ folder_id: folderId, user_id: userId, permission, created_at: new Date().toISOString() })
    .execute();
}
