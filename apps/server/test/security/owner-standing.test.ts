import { TeamFolderDocument } from '@atelier/contracts';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestAgent } from '../support/agent';
import { describeEachDatabase } from '../support/each-database';
import { createUser, signedInAgent } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';
import { restrictAsUnpaid } from '../support/unpaid-account';
import { uploaded } from '../files/files-harness';
import { anonymousAgent, createShare } from '../sharing/sharing-harness';

/** The unpaid amount restrictAsUnpaid leaves (2.60 EUR), however it is written. */
const BILL = /2[.,]60/;

describeEachDatabase("an owner's unpaid bill is told to the owner alone", (kind) => {
  let t: TestApp;
  let owner: TestAgent;
  let member: TestAgent;
  let visitor: TestAgent;
  let file: string;
  let teamFile: string;
  let team: string;
  let token: string;
  let undo: () => Promise<void>;

  beforeAll(async () => {
    t = await createTestApp({ database: kind });
    const { user } = await createUser(t.deps, { name: 'Olive Owner' });
    owner = (await signedInAgent(t.app, user)).agent;
    const someone = await createUser(t.deps, { name: 'Milo Member' });
    member = (await signedInAgent(t.app, someone.user)).agent;
    file = (await uploaded(owner, randomBytes(100), { name: 'a.bin' })).id;
    token = (await createShare(owner, { id: file, type: 'file', permission: 'visitor' })).token;
    const made = await owner.post('/api/teams/folders', { name: 'Studio', invitations: [] });
    team = TeamFolderDocument.parse(made.json()).data.id;
    teamFile = (await uploaded(owner, randomBytes(100), { name: 'b.bin', parentId: team })).id;
    await t.deps.database.db
      .insertInto('team_members')
      .values({
        folder_id: team,
        user_id: someone.user.id,
        permission: 'can_edit',
        created_at: new Date().toISOString(),
      })
      .execute();
    visitor = await anonymousAgent(t.app, '198.51.100.20');
    undo = await restrictAsUnpaid(t, user.id);
  });
  afterAll(async () => {
    await undo();
    await t.close();
  });

  it('refuses the owner a download with the amount owed', async () => {
    const answer = await owner.get(`/file/${file}`);
    expect(answer.statusCode).toBe(403);
    expect(answer.json().message).toMatch(BILL);
  });

  it("refuses a link's visitor a download and a zip in plain words", async () => {
    for (const url of [`/file/${file}/shared/${token}`, `/api/sharing/zip/${token}?items=${file}|file`]) {
      const answer = await visitor.get(url);
      expect(answer.statusCode, url).toBe(403);
      expect(answer.json().message, url).not.toMatch(BILL);
    }
  });

  it('refuses a team member a download and an upload by address in plain words', async () => {
    const download = await member.get(`/file/${teamFile}`);
    expect(download.statusCode).toBe(403);
    expect(download.json().message).not.toMatch(BILL);
    const remote = await member.post('/api/upload/remote', {
      urls: ['http://198.51.100.1/model.step'],
      parent_id: team,
    });
    // The description's answer to an upload an account may not make.
    expect(remote.statusCode).toBe(401);
    expect(remote.json().message).not.toMatch(BILL);
  });
});
