import {
  TeamFolderDocument,
  UploadRequestDocument,
  type ProjectAssetPayload,
  type ProjectDocument,
} from '@atelier/contracts';
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { expect, it } from 'vitest';
import type { z } from 'zod';
import type { JobWorker } from '../../src/jobs/job-queue';
import { filesJobDefinitions } from '../../src/modules/files/files.module';
import { ownerActor } from '../../src/modules/files/files.access';
import { projectsJobDefinitions } from '../../src/modules/projects/projects.module';
import { uploaded } from '../files/files-harness';
import { waitFor } from '../jobs/support/wait-for';
import { uploadToProject } from '../projects/support/chunks';
import { boxStl } from '../projects/support/models';
import { anonymousAgent } from '../sharing/sharing-harness';
import { describeEachDatabase } from '../support/each-database';
import { createUser } from '../support/factories';
import { acceptInvitation, changesOf, hearOwnChange, realtimePeople, WITHIN_MS } from './support/people';
import { eventAfter } from './support/sockets';

describeEachDatabase('items.changed from every write path', (kind) => {
  const suite = realtimePeople(kind);
  const { person } = suite;

  it('follows one team member’s upload, move and delete in another member’s open listing, and tells no one else', async () => {
    const owner = await person('Olivia Owner');
    const alice = await person('Alice Member');
    const bob = await person('Bob Member');
    const stranger = await person('Sam Stranger');
    const created = await owner.agent.post('/api/teams/folders', {
      name: 'Studio',
      invitations: [alice, bob].map((m) => ({ email: m.user.email, permission: 'can_edit' })),
    });
    expect(created.statusCode, created.body).toBe(201);
    const team = TeamFolderDocument.parse(created.json()).data.id;
    for (const member of [alice, bob]) await acceptInvitation(member);
    // Each acceptance reaches the team (its member list changed): the folder's creation and both
    // acceptances for the owner, both for Alice, his own for Bob.
    const joined = new Map([
      [owner, 3],
      [alice, 2],
      [bob, 1],
    ]);
    await waitFor('the acceptances', () => [...joined].every(([p, heard]) => changesOf(p).length === heard));
    const changed = { owner_id: owner.user.id };
    // The owner's own writes inside the team folder reach its members too.
    let renders = '';
    await expect(
      eventAfter(
        bob.socket,
        'items.changed',
        async () => {
          const inner = await owner.agent.post('/api/create-folder', { name: 'Renders', parent_id: team });
          expect(inner.statusCode, inner.body).toBe(201);
          renders = inner.json().data.id as string;
        },
        WITHIN_MS,
      ),
    ).resolves.toEqual(changed);

    let file = '';
    await expect(
      eventAfter(
        bob.socket,
        'items.changed',
        async () => {
          file = (await uploaded(alice.agent, randomBytes(300), { name: 'sketch.png', parentId: team })).id;
        },
        WITHIN_MS,
      ),
    ).resolves.toEqual(changed);
    await expect(
      eventAfter(
        bob.socket,
        'items.changed',
        async () => {
          const moved = await alice.agent.post('/api/move', {
            to_id: renders,
            items: [{ id: file, type: 'file' }],
          });
          expect(moved.statusCode, moved.body).toBe(204);
        },
        WITHIN_MS,
      ),
    ).resolves.toEqual(changed);
    await expect(
      eventAfter(
        bob.socket,
        'items.changed',
        async () => {
          const removed = await alice.agent.post('/api/remove', {
            items: [{ id: file, type: 'file', force_delete: false }],
          });
          expect(removed.statusCode, removed.body).toBe(204);
        },
        WITHIN_MS,
      ),
    ).resolves.toEqual(changed);

    // The stranger's own change arrives after anything sent to them before it: nothing else came.
    await hearOwnChange(stranger);
    expect(stranger.events).toEqual([{ event: 'items.changed', payload: { owner_id: stranger.user.id } }]);
    // Everyone who sees the team folder heard of each of the four changes, once each.
    await waitFor('the owner’s and the writer’s changes', () =>
      [owner, alice].every((p) => changesOf(p).length >= joined.get(p)! + 4),
    );
    for (const who of [alice, bob]) expect(changesOf(who)).toHaveLength(joined.get(who)! + 4);
  });

  it('tells the members of a deleted account’s team folder that it is gone', async () => {
    const owner = await person('Gone Owner');
    const member = await person('Mia Member');
    const created = await owner.agent.post('/api/teams/folders', {
      name: 'Closing down',
      invitations: [{ email: member.user.email, permission: 'can_view' }],
    });
    expect(created.statusCode, created.body).toBe(201);
    await acceptInvitation(member);
    const { user: admin } = await createUser(suite.t.deps, { role: 'admin' });
    await expect(
      eventAfter(
        member.socket,
        'items.changed',
        () => suite.t.deps.adminUsers.remove(admin, owner.user.id, owner.user.name),
        WITHIN_MS,
      ),
    ).resolves.toEqual({ owner_id: owner.user.id });
  });

  it('tells the members of a team folder that comes back from the trash inside the folder above it', async () => {
    const owner = await person('Rhea Restorer');
    const member = await person('Mo Member');
    const above = (await owner.agent.post('/api/create-folder', { name: 'Clients' })).json().data
      .id as string;
    const acme = (await owner.agent.post('/api/create-folder', { name: 'Acme', parent_id: above })).json()
      .data.id as string;
    const converted = await owner.agent.post(`/api/teams/folders/${acme}/convert`, {
      invitations: [{ email: member.user.email, permission: 'can_view' }],
    });
    expect(converted.statusCode, converted.body).toBe(201);
    await acceptInvitation(member);
    // The member's own acceptance, then the folder above going to the trash with the team folder.
    await waitFor('the acceptance', () => changesOf(member).length === 1);
    const trashed = await owner.agent.post('/api/remove', {
      items: [{ id: above, type: 'folder', force_delete: false }],
    });
    expect(trashed.statusCode).toBe(204);
    await waitFor('the trashing', () => changesOf(member).length === 2);
    // Back with the folder above it: the member's open "Shared with me" hears of it.
    const restored = await owner.agent.post('/api/trash/restore', {
      to_home: false,
      items: [{ id: above, type: 'folder' }],
    });
    expect(restored.statusCode).toBe(204);
    await waitFor('the restore', () => changesOf(member).length === 3);
    expect(changesOf(member).at(-1)?.payload).toEqual({ owner_id: owner.user.id });
  });

  it('tells the owner of what a share link’s editor and an upload request’s outsider send', async () => {
    const owner = await person('Olivia Owner');
    const folder = (await owner.agent.post('/api/create-folder', { name: 'Drop' })).json().data.id as string;
    const share = await owner.agent.post('/api/share', { id: folder, type: 'folder', permission: 'editor' });
    expect(share.statusCode, share.body).toBe(201);
    const token = share.json().data.attributes.token as string;
    const request = await owner.agent.post('/api/file-request', { folder_id: folder });
    expect(request.statusCode, request.body).toBe(201);
    const requestId = UploadRequestDocument.parse(request.json()).data.id;
    const visitor = await anonymousAgent(suite.t.app);
    const changed = { owner_id: owner.user.id };

    await expect(
      eventAfter(
        owner.socket,
        'items.changed',
        () =>
          uploaded(visitor, randomBytes(100), {
            name: 'edit.txt',
            url: `/api/sharing/upload/chunks/${token}`,
          }),
        WITHIN_MS,
      ),
    ).resolves.toEqual(changed);
    await expect(
      eventAfter(
        owner.socket,
        'items.changed',
        () =>
          uploaded(visitor, randomBytes(100), {
            name: 'sent.txt',
            url: `/api/file-request/${requestId}/upload/chunks`,
          }),
        WITHIN_MS,
      ),
    ).resolves.toEqual(changed);
  });

  it('announces a write made in a unit of work once it commits, and never one rolled back', async () => {
    const owner = await person('Olivia Owner');
    const actor = ownerActor(owner.user.id);
    await expect(
      suite.t.deps.database.transaction(async () => {
        await suite.t.deps.files.createFolder(actor, { name: 'Undone' });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await expect(
      eventAfter(
        owner.socket,
        'items.changed',
        () =>
          suite.t.deps.database.transaction(() => suite.t.deps.files.createFolder(actor, { name: 'Kept' })),
        WITHIN_MS,
      ),
    ).resolves.toEqual({ owner_id: owner.user.id });
    // The socket keeps the server's order: had the undone folder been announced, it would be first.
    expect(owner.events).toEqual([{ event: 'items.changed', payload: { owner_id: owner.user.id } }]);
  });

  it('tells the owner again once an uploaded image’s thumbnails are made', async () => {
    const owner = await person('Olivia Owner');
    const worker = suite.t.deps.jobs.startWorker({
      definitions: filesJobDefinitions,
      services: suite.t.deps,
    });
    try {
      const image = await sharp({
        create: { width: 64, height: 48, channels: 3, background: '#c0392b' },
      })
        .png()
        .toBuffer();
      const file = await uploaded(owner.agent, image, { name: 'swatch.png' });
      // The upload's change, then the thumbnails' (the upload announces once).
      await waitFor('the thumbnails’ change', () => changesOf(owner).length === 2);
      expect((await owner.agent.get(`/thumbnail/sm/${file.id}`)).statusCode).toBe(200);
    } finally {
      await worker.close();
    }
  });

  it('tells the owner when a render’s outputs are filed in the project’s folder', async () => {
    const owner = await person('Olivia Owner');
    const worker: JobWorker = suite.t.deps.jobs.startWorker({
      definitions: [...projectsJobDefinitions, ...filesJobDefinitions],
      services: suite.t.deps,
    });
    try {
      const project = (
        await owner.agent.post('/api/create-project', { project_name: 'Tiny' })
      ).json<ProjectDocument>();
      // A tiny scene keeps the real engine fast.
      for (const [updateKey, updateValue] of Object.entries({
        resolution: { width: 48, height: 48 },
        stills: 1,
        video: false,
      })) {
        const answer = await owner.agent.post('/api/update-project-settings', {
          project_id: project.id,
          updateKey,
          updateValue,
        });
        expect(answer.statusCode, answer.body).toBe(200);
      }
      expect((await uploadToProject(owner.agent, project.id, 'box.stl', boxStl())).at(-1)!.statusCode).toBe(
        201,
      );
      const started = await owner.agent.post('/api/generateAssets', {
        project_id: project.id,
        category_id: 'mechanical',
      });
      expect(started.statusCode, started.body).toBe(201);
      const status = (e: { event: string; payload: unknown }) =>
        e.event === 'project.asset' ? (e.payload as z.infer<typeof ProjectAssetPayload>).status : null;
      await waitFor('the render', () => owner.events.some((e) => status(e) === 'done'), 120_000);
      // Between the render's start and its end, its outputs were filed and announced (the socket keeps
      // the server's order, so the upload's own change came before the start).
      const run = owner.events.slice(
        owner.events.findIndex((e) => status(e) === 'rendering'),
        owner.events.findIndex((e) => status(e) === 'done'),
      );
      expect(run.map((e) => e.event)).toContain('items.changed');
    } finally {
      await worker.close();
    }
  });
});
