import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberActor, ownerActor, type Actor } from '../../src/modules/files/files.access';
import type { TestAgent } from '../support/agent';
import { databaseKinds } from '../support/databases';
import { signedInAgent } from '../support/factories';
import { QueryCounter } from '../support/query-counter';
import { createTestApp, type TestApp } from '../support/test-app';
import { uploaded } from './files-harness';

const QUERY = { sort: 'name', direction: 'asc', page: 2, per_page: 2 } as const;
/** The folder's second page of two: its files, one range of the index (a page across folders and files reads two). */
const PAGE = '?sort=name&direction=asc&page=2&per_page=2';

// What a folder page costs in database round trips, counted statement by statement, so the count
// cannot grow back unnoticed; and what the page says is what the service builds for the same actor
// reading every part on its own (the folder, its access check, its marks, its counts).
for (const database of databaseKinds) {
  describe(`folder page round trips [${database}]`, () => {
    const counter = new QueryCounter();
    let t: TestApp;
    let owner: { agent: TestAgent; id: string };
    let member: { agent: TestAgent; id: string };
    let stranger: { agent: TestAgent; id: string };
    let team: string;
    let box: string;
    let visit = 0;

    beforeAll(async () => {
      t = await createTestApp({ database, plugins: [counter], env: { STORAGE_DRIVER: 'local' } });
      const signedIn = await signedInAgent(t.app);
      owner = { agent: signedIn.agent, id: signedIn.user.id };
      const other = await signedInAgent(t.app);
      member = { agent: other.agent, id: other.user.id };
      const third = await signedInAgent(t.app);
      stranger = { agent: third.agent, id: third.user.id };
      const newFolder = async (name: string, parentId: string | null) =>
        (await owner.agent.post('/api/create-folder', { name, parent_id: parentId })).json().data
          .id as string;
      team = await newFolder('Team', null);
      box = await newFolder('Box', team);
      for (const name of ['b', 'a']) await newFolder(name, box);
      for (const name of ['y.bin', 'x.bin'])
        await uploaded(owner.agent, randomBytes(64), { name, parentId: box });
      // The folder is the owner's favourite and has a link: its marks show on the page's root.
      expect((await owner.agent.post('/api/favourites', { ids: [box] })).statusCode).toBe(204);
      const link = await owner.agent.post('/api/share', { id: box, type: 'folder', permission: 'visitor' });
      expect(link.statusCode, link.body).toBe(201);
      const now = new Date().toISOString();
      await t.deps.database.db
        .insertInto('team_folders')
        .values({ folder_id: team, user_id: owner.id, created_at: now })
        .execute();
      await t.deps.database.db
        .insertInto('team_members')
        .values({ folder_id: team, user_id: member.id, permission: 'can_view', created_at: now })
        .execute();
    });
    afterAll(() => t.close());

    /** A page no one asked for yet (a parameter the listing ignores), and the statements it took. */
    async function firstVisit(agent: TestAgent, folderId: string) {
      const url = `/api/browse/folders/${folderId}${PAGE}&visit=${++visit}`;
      const { result: res, statements } = await counter.count(() => agent.get(url));
      return { res, statements, url };
    }

    /** The page as the service builds it for `actor` when nothing was read with the actor. */
    async function built(actor: Actor, folderId: string) {
      return JSON.stringify(await t.deps.files.browseFolder(actor, folderId, QUERY));
    }

    it("reads the owner's first visit of a folder in three statements, the page as the service builds it", async () => {
      const { res, statements } = await firstVisit(owner.agent, box);
      expect(res.statusCode, res.body).toBe(200);
      // The session; the folder with the owner's listing version, its marks and counts; the page.
      expect(statements, statements.join('\n')).toHaveLength(3);
      expect(res.body).toBe(await built(ownerActor(owner.id), box));
      const root = res.json().meta.root;
      expect(root.relationships.favourites.data).not.toBeNull();
      expect(root.relationships.shared.data).not.toBeNull();
      expect(root.attributes.items).toBe(4);
    });

    it('answers a repeated page in two statements: the session, and the folder with the listing version', async () => {
      const url = `/api/browse/folders/${box}${PAGE}`;
      await owner.agent.get(url);
      const { result: res, statements } = await counter.count(() => owner.agent.get(url));
      expect(res.statusCode).toBe(200);
      expect(statements, statements.join('\n')).toHaveLength(2);
    });

    it("reads a member's page in the team folder with the membership checked, as the service builds it", async () => {
      const { res, statements } = await firstVisit(member.agent, box);
      expect(res.statusCode, res.body).toBe(200);
      // The session, the folder, its ancestors and the memberships among them (the actor), the
      // ancestors again (the access check), the page.
      expect(statements, statements.join('\n')).toHaveLength(6);
      const actor = memberActor({ ownerId: owner.id, userId: member.id, folderId: team, canWrite: false });
      expect(res.body).toBe(await built(actor, box));
      expect(res.json().data.map((item: { attributes: { name: string } }) => item.attributes.name)).toEqual([
        'x.bin',
        'y.bin',
      ]);
      // A member sees neither the owner's favourite nor the owner's link.
      expect(res.json().meta.root.relationships.favourites.data).toBeNull();
      expect(res.json().meta.root.relationships.shared.data).toBeNull();
    });

    it('answers anyone else 404, and reads nothing of the page', async () => {
      const { res, statements } = await firstVisit(stranger.agent, box);
      expect(res.statusCode).toBe(404);
      // The stranger acts as themselves (no membership above the folder), and their own tree holds no
      // such folder: the folder read with the actor is not theirs, so it is not what is checked.
      expect(statements.filter((statement) => statement.includes('thumbnails'))).toEqual([]);
      // Nor would a folder read for someone else be taken as theirs if an actor carried it.
      const { listed } = await t.deps.actors.ofFolderPage(owner.id, box);
      expect(listed?.id).toBe(box);
      await expect(
        t.deps.files.browseFolder({ ...ownerActor(stranger.id), listed }, box, QUERY),
      ).rejects.toMatchObject({ code: 'not_found' });
    });
  });
}
