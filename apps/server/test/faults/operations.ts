import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { ProjectDocument, RenderJobList } from '@atelier/contracts';
import { BLOCK_GRACE_MS } from '../../src/modules/files/block-collector';
import { sha256Hex } from '../../src/modules/files/block-store';
import type { AppDeps } from '../../src/services';
import type { TestAgent } from '../support/agent';
import { Secret, TOTP } from 'otpauth';
import { createSession, createUser, DEFAULT_PASSWORD, signedInAgent } from '../support/factories';
import { verifyPassword } from '../../src/lib/passwords';
import { signStripeEvent, stripeEvent } from '../support/signed-webhooks';
import { multipartBody, uploaded } from '../files/files-harness';
import { uploadToProject } from '../projects/support/chunks';
import { boxStl } from '../projects/support/models';
import { waitFor } from '../jobs/support/wait-for';
import { anonymousAgent } from '../sharing/sharing-harness';

export const STRIPE_WEBHOOK_SECRET = 'whsec_fault_injection';
const NEW_PASSWORD = 'a password set after a break-in';

/** What an operation runs against: the app in this process, or in the process the test kills. */
export interface Target {
  app: FastifyInstance;
  deps: AppDeps;
}

/** A multi-write operation, as a user or a provider sets it off. Its input is plain JSON, for a child process. */
export interface Operation {
  name: string;
  /** Makes what one run needs (a person, a project, a signed event) and answers it. */
  prepare(t: Target): Promise<Record<string, string>>;
  act(t: Target, input: Record<string, string>): Promise<unknown>;
  /**
   * After a failed run, and after whatever the outbox or the workers finish: asserts that nothing
   * happened or everything did, and answers which.
   */
  outcome(t: Target, input: Record<string, string>): Promise<'nothing' | 'everything'>;
}

const TINY_STILLS = { resolution: { width: 32, height: 32 }, stills: 1, video: false } as const;

async function agentFor(t: Target, userId: string): Promise<TestAgent> {
  return (await signedInAgent(t.app, (await t.deps.users.findById(userId))!)).agent;
}

async function projectWithModels(t: Target, models: number, settings: Record<string, unknown> = {}) {
  const { user } = await createUser(t.deps);
  const agent = await agentFor(t, user.id);
  const project = (
    await agent.post('/api/create-project', { project_name: 'Faults' })
  ).json<ProjectDocument>();
  for (const [key, value] of Object.entries(settings))
    await agent.post('/api/update-project-settings', {
      project_id: project.id,
      updateKey: key,
      updateValue: value,
    });
  for (let i = 0; i < models; i++) await uploadToProject(agent, project.id, `part-${i}.stl`, boxStl());
  return { userId: user.id, projectId: project.id, agent };
}

const count = async (query: Promise<{ n: number | string }[]>) => Number((await query)[0]?.n ?? 0);

/** Jobs of one kind that exist, stored or waiting, whichever queue the app uses. */
async function waitingJobs(t: Target, name: string): Promise<number> {
  return (await t.deps.jobs.counts([name])).waiting;
}

/**
 * The jobs a run starts from, once the outbox is empty: a job an earlier run left there (held for a
 * while by a forwarder a fault struck) would otherwise reach the queue in the middle of this run.
 */
async function jobsBefore(t: Target, name: string): Promise<string> {
  await waitFor('the outbox to empty', async () => {
    const rows = await count(
      t.deps.database.db
        .selectFrom('job_outbox')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .execute(),
    );
    return rows === 0;
  });
  return String(await waitingJobs(t, name));
}

/** Bytes the chunker cuts into a few blocks (a few MiB of noise). */
function blockifiable(): Buffer {
  return randomBytes(3 * 1024 * 1024 + 4321);
}

/** Every live block of the owner has its object: no block is lost, whatever was struck. */
async function liveBlocksHaveObjects(t: Target, userId: string): Promise<void> {
  const storage = await t.deps.storage.current();
  const live = await t.deps.database.db
    .selectFrom('blocks')
    .select('storage_key')
    .where('user_id', '=', userId)
    .where('state', '=', 'live')
    .execute();
  for (const block of live)
    if (!(await storage.exists(block.storage_key)))
      throw new Error(`live block ${block.storage_key} has no object`);
}

/** An image filed under `input.name` comes with its thumbnail job and its request, or none of them exists. */
async function imageWithThumbnailJob(
  t: Target,
  input: Record<string, string>,
): Promise<'nothing' | 'everything'> {
  const items = await count(
    t.deps.database.db
      .selectFrom('items')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('name', '=', input.name!)
      .execute(),
  );
  const jobs = (await waitingJobs(t, 'files.thumbnails')) - Number(input.jobsBefore);
  if (items !== jobs) throw new Error(`${items} files but ${jobs} thumbnail jobs`);
  // Owed its thumbnails until the job settles them, so the sweep finds it should the job be lost.
  const owed = await count(
    t.deps.database.db
      .selectFrom('thumbnail_requests')
      .innerJoin('items', 'items.id', 'thumbnail_requests.item_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('items.name', '=', input.name!)
      .execute(),
  );
  if (items !== owed) throw new Error(`${items} files but ${owed} owed their thumbnails`);
  return items === 0 ? 'nothing' : 'everything';
}

/**
 * A folder holding a file with one earlier version, of a person of its own: what a deletion for good
 * is struck on. Answers the ids and the storage keys of the file's two contents.
 */
async function folderWithVersionedFile(t: Target): Promise<Record<string, string>> {
  const { user } = await createUser(t.deps);
  const agent = await agentFor(t, user.id);
  const folder = await agent.post('/api/create-folder', { name: `Doomed ${randomBytes(3).toString('hex')}` });
  if (folder.statusCode !== 201) throw new Error(`the folder answered ${folder.statusCode}`);
  const folderId = folder.json<{ data: { id: string } }>().data.id;
  const file = await uploaded(agent, randomBytes(300), { name: 'plan.bin', parentId: folderId });
  await uploaded(agent, randomBytes(200), { name: 'plan.bin', parentId: folderId, conflict: 'replace' });
  const contents = await t.deps.database.db
    .selectFrom('file_contents')
    .select(['id', 'storage_key'])
    .where('user_id', '=', user.id)
    .execute();
  if (contents.length !== 2) throw new Error(`the file has ${contents.length} contents, not 2`);
  return {
    userId: user.id,
    folderId,
    fileId: file.id,
    contentIds: JSON.stringify(contents.map((content) => content.id)),
    keys: JSON.stringify(contents.map((content) => content.storage_key)),
    jobsBefore: await jobsBefore(t, 'admin.storage-purge'),
  };
}

/**
 * The folder, its file, the file's contents and its version are there with their bytes, or all their
 * rows are gone with the job that deletes their bytes; bytes still stored are then recorded for that
 * job. Never a row naming bytes that are gone.
 */
async function deletedForGood(t: Target, input: Record<string, string>): Promise<'nothing' | 'everything'> {
  const db = t.deps.database.db;
  const keys = JSON.parse(input.keys!) as string[];
  const storage = await t.deps.storage.current();
  const stored = new Set<string>();
  for (const key of keys) if (await storage.stat(key)) stored.add(key);
  const recorded = new Set(
    (await db.selectFrom('storage_purges').select('key').where('key', 'in', keys).execute()).map(
      (row) => row.key,
    ),
  );
  const parts = {
    items: (
      await db.selectFrom('items').select('id').where('id', 'in', [input.folderId!, input.fileId!]).execute()
    ).length,
    contents: (
      await db
        .selectFrom('file_contents')
        .select('id')
        .where('id', 'in', JSON.parse(input.contentIds!) as string[])
        .execute()
    ).length,
    versions: (
      await db.selectFrom('file_versions').select('id').where('item_id', '=', input.fileId!).execute()
    ).length,
    stored: stored.size,
    recorded: recorded.size,
    jobs: (await waitingJobs(t, 'admin.storage-purge')) - Number(input.jobsBefore),
  };
  if (
    parts.items === 2 &&
    parts.contents === 2 &&
    parts.versions === 1 &&
    parts.stored === 2 &&
    parts.recorded === 0 &&
    parts.jobs === 0
  )
    return 'nothing';
  if (
    parts.items === 0 &&
    parts.contents === 0 &&
    parts.versions === 0 &&
    parts.jobs === 1 &&
    [...stored].every((key) => recorded.has(key))
  )
    return 'everything';
  throw new Error(`a deletion for good half done: ${JSON.stringify(parts)}`);
}

export const operations: Operation[] = [
  {
    // A provider's event is stored and its apply job enqueued; the apply job runs in the worker.
    name: 'a billing event and its job',
    async prepare() {
      const signed = signStripeEvent(
        stripeEvent('customer.created', { id: `cus_${randomBytes(6).toString('hex')}` }),
        STRIPE_WEBHOOK_SECRET,
      );
      return {
        body: signed.body,
        signature: signed.headers['stripe-signature']!,
        eventId: JSON.parse(signed.body).id,
      };
    },
    act(t, input) {
      return t.deps.billingEvents.receive('stripe', Buffer.from(input.body!), {
        'content-type': 'application/json',
        'stripe-signature': input.signature!,
      });
    },
    async outcome(t, input) {
      const rows = await t.deps.database.db
        .selectFrom('billing_events')
        .selectAll()
        .where('event_id', '=', input.eventId!)
        .execute();
      if (rows.length === 0) return 'nothing';
      if (rows.length !== 1) throw new Error(`the event was stored ${rows.length} times`);
      // Everything: the event is applied by the job that committed with it.
      const settled = await t.deps.database.db
        .selectFrom('billing_events')
        .select('status')
        .where('id', '=', rows[0]!.id)
        .executeTakeFirstOrThrow();
      if (settled.status === 'received') throw new Error('the event is stored but was not applied');
      return 'everything';
    },
  },
  {
    // One render row per model file, each with its job.
    name: 'renders and their jobs',
    async prepare(t) {
      const { userId, projectId } = await projectWithModels(t, 2);
      return { userId, projectId, jobsBefore: await jobsBefore(t, 'projects.render') };
    },
    act(t, input) {
      return t.deps.projects.generate(input.userId!, input.projectId!, 'mechanical');
    },
    async outcome(t, input) {
      const renders = await count(
        t.deps.database.db
          .selectFrom('project_renders')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('project_id', '=', input.projectId!)
          .execute(),
      );
      const jobs = (await waitingJobs(t, 'projects.render')) - Number(input.jobsBefore);
      if (renders !== jobs) throw new Error(`${renders} renders but ${jobs} render jobs`);
      if (renders === 0) return 'nothing';
      if (renders !== 2) throw new Error(`${renders} of the 2 renders were stored`);
      return 'everything';
    },
  },
  {
    // The render's file, its output record, the bytes counted and its thumbnail job.
    name: 'a rendered file and its output record',
    async prepare(t) {
      const { userId, projectId, agent } = await projectWithModels(t, 1, TINY_STILLS);
      const renders = (
        await agent.post('/api/generateAssets', { project_id: projectId, category_id: 'mechanical' })
      ).json<RenderJobList>().data;
      return { userId, projectId, renderId: renders[0]!.id };
    },
    act(t, input) {
      // A first attempt: a failure puts the render back in the queue, to be run again.
      return t.deps.projectRenders.run(input.renderId!, {
        attempt: 1,
        failures: 0,
        retries: 1,
        signal: new AbortController().signal,
      });
    },
    async outcome(t, input) {
      const db = t.deps.database.db;
      const outputs = await db
        .selectFrom('items')
        .leftJoin('project_outputs', 'project_outputs.item_id', 'items.id')
        .select(['items.id', 'items.mimetype', 'project_outputs.item_id as output'])
        .where('items.user_id', '=', input.userId!)
        .where('items.type', '=', 'file')
        .where('items.name', 'like', '%.png')
        .execute();
      const orphans = outputs.filter((o) => o.output === null);
      if (orphans.length > 0) throw new Error(`${orphans.length} rendered files have no output record`);
      const usage = await db
        .selectFrom('storage_usage')
        .select('used_bytes')
        .where('user_id', '=', input.userId!)
        .executeTakeFirst();
      const sum = await count(
        sql<{
          n: number;
        }>`select coalesce(sum(size), 0) as n from items where user_id = ${input.userId!} and type = 'file'`
          .execute(db)
          .then((r) => r.rows),
      );
      if (Number(usage?.used_bytes ?? 0) !== sum)
        throw new Error(`storage_usage says ${usage?.used_bytes}, the files add up to ${sum}`);
      return outputs.length === 0 ? 'nothing' : 'everything';
    },
  },
  {
    // An uploaded image: its item, the upload's end and its thumbnail job.
    name: 'an upload and its thumbnail job',
    async prepare(t) {
      const { user } = await createUser(t.deps);
      return {
        userId: user.id,
        name: `${randomBytes(4).toString('hex')}.png`,
        jobsBefore: await jobsBefore(t, 'files.thumbnails'),
      };
    },
    async act(t, input) {
      const agent = await agentFor(t, input.userId!);
      const { payload, headers } = multipartBody([
        { field: 'name', value: input.name! },
        { field: 'extension', value: 'png' },
        { field: 'is_last_chunk', value: '1' },
        { file: 'chunk', filename: `${randomBytes(8).toString('hex')}-${input.name}.part`, data: PNG },
      ]);
      const answer = await agent.post('/api/upload/chunks', payload, { headers });
      if (answer.statusCode !== 201) throw new Error(`the upload answered ${answer.statusCode}`);
    },
    outcome: imageWithThumbnailJob,
  },
  {
    // An outsider's first file through an upload request: the item, the upload's end, its thumbnail
    // job, the request's move to filling, the owner's notification and the job that mails them.
    name: 'a file through an upload request and its notice to the owner',
    async prepare(t) {
      const { user } = await createUser(t.deps);
      const owner = await agentFor(t, user.id);
      const answer = await owner.post('/api/file-request', {
        name: `Drop ${randomBytes(3).toString('hex')}`,
      });
      if (answer.statusCode !== 201) throw new Error(`the request answered ${answer.statusCode}`);
      return {
        userId: user.id,
        requestId: answer.json<{ data: { id: string } }>().data.id,
        name: `${randomBytes(4).toString('hex')}.png`,
        thumbnailsBefore: await jobsBefore(t, 'files.thumbnails'),
        mailsBefore: await jobsBefore(t, 'upload-requests.mail-owner'),
      };
    },
    async act(t, input) {
      const outsider = await anonymousAgent(t.app);
      const { payload, headers } = multipartBody([
        { field: 'name', value: input.name! },
        { field: 'is_last_chunk', value: '1' },
        { file: 'chunk', filename: `${randomBytes(8).toString('hex')}-${input.name}.part`, data: PNG },
      ]);
      const answer = await outsider.post(`/api/file-request/${input.requestId}/upload/chunks`, payload, {
        headers,
      });
      if (answer.statusCode !== 201) throw new Error(`the upload answered ${answer.statusCode}`);
    },
    async outcome(t, input) {
      const db = t.deps.database.db;
      const request = await db
        .selectFrom('upload_requests')
        .select('status')
        .where('id', '=', input.requestId!)
        .executeTakeFirstOrThrow();
      const parts = {
        files: await count(
          db
            .selectFrom('items')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('user_id', '=', input.userId!)
            .where('upload_request_id', '=', input.requestId!)
            .where('name', '=', input.name!)
            .execute(),
        ),
        thumbnailJobs: (await waitingJobs(t, 'files.thumbnails')) - Number(input.thumbnailsBefore),
        filling: request.status === 'filling' ? 1 : 0,
        notifications: await count(
          db
            .selectFrom('notifications')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('user_id', '=', input.userId!)
            .where('category', '=', 'file-request')
            .execute(),
        ),
        mailJobs: (await waitingJobs(t, 'upload-requests.mail-owner')) - Number(input.mailsBefore),
      };
      if (Object.values(parts).every((n) => n === 0)) return 'nothing';
      if (Object.values(parts).every((n) => n === 1)) return 'everything';
      throw new Error(`a file through a request half filed: ${JSON.stringify(parts)}`);
    },
  },
  {
    // An administrator deletes an account: its files, the purge record of their bytes, the account,
    // the audit entry and the purge job.
    name: 'the deletion of an account and its purge job',
    async prepare(t) {
      const { user: admin } = await createUser(t.deps, { role: 'admin' });
      const { user } = await createUser(t.deps, { name: `Gone ${randomBytes(3).toString('hex')}` });
      const agent = await agentFor(t, user.id);
      const { payload, headers } = multipartBody([
        { field: 'name', value: 'kept.bin' },
        { field: 'is_last_chunk', value: '1' },
        { file: 'chunk', filename: `${randomBytes(8).toString('hex')}-kept.bin.part`, data: randomBytes(64) },
      ]);
      const answer = await agent.post('/api/upload/chunks', payload, { headers });
      if (answer.statusCode !== 201) throw new Error(`the upload answered ${answer.statusCode}`);
      return {
        adminId: admin.id,
        userId: user.id,
        name: user.name,
        jobsBefore: await jobsBefore(t, 'admin.storage-purge'),
      };
    },
    async act(t, input) {
      const agent = await agentFor(t, input.adminId!);
      const answer = await agent.delete(`/api/admin/users/${input.userId}`, { name: input.name });
      if (answer.statusCode !== 204) throw new Error(`the deletion answered ${answer.statusCode}`);
    },
    async outcome(t, input) {
      const db = t.deps.database.db;
      const parts = {
        account: await count(
          db
            .selectFrom('users')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('id', '=', input.userId!)
            .execute(),
        ),
        files: await count(
          db
            .selectFrom('items')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('user_id', '=', input.userId!)
            .execute(),
        ),
        audit: await count(
          db
            .selectFrom('audit_log')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('target_id', '=', input.userId!)
            .where('action', '=', 'user.deleted')
            .execute(),
        ),
        jobs: (await waitingJobs(t, 'admin.storage-purge')) - Number(input.jobsBefore),
      };
      if (parts.account === 1 && parts.files === 1 && parts.audit === 0 && parts.jobs === 0) return 'nothing';
      if (parts.account === 0 && parts.files === 0 && parts.audit === 1 && parts.jobs === 1)
        return 'everything';
      throw new Error(`a deletion half done: ${JSON.stringify(parts)}`);
    },
  },
  {
    // An administrator sets a new password: the password, and every way in the old one gave (the
    // app password, the account's sessions, reset links, sign-ins at their code) ends, audited.
    name: 'a password set by an administrator with every way in ended',
    async prepare(t) {
      const { user: admin } = await createUser(t.deps, { role: 'admin' });
      const { user } = await createUser(t.deps);
      await t.deps.appPasswords.create(user.id, { name: 'an intruder’s WebDAV' });
      await createSession(t.deps, user);
      return { adminId: admin.id, userId: user.id };
    },
    async act(t, input) {
      const agent = await agentFor(t, input.adminId!);
      const answer = await agent.post(`/api/admin/users/${input.userId}/password`, {
        password: NEW_PASSWORD,
        password_confirmation: NEW_PASSWORD,
      });
      if (answer.statusCode !== 204) throw new Error(`the new password answered ${answer.statusCode}`);
    },
    async outcome(t, input) {
      const db = t.deps.database.db;
      const rows = (table: 'sessions' | 'app_passwords' | 'audit_log') =>
        count(
          db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where(table === 'audit_log' ? 'target_id' : 'user_id', '=', input.userId!)
            .execute(),
        );
      const user = (await t.deps.users.findById(input.userId!))!;
      const parts = {
        replaced: (await verifyPassword(user.password_hash!, NEW_PASSWORD)) ? 1 : 0,
        sessions: await rows('sessions'),
        appPasswords: await rows('app_passwords'),
        audit: await rows('audit_log'),
      };
      if (parts.replaced === 0 && parts.sessions === 1 && parts.appPasswords === 1 && parts.audit === 0)
        return 'nothing';
      if (parts.replaced === 1 && parts.sessions === 0 && parts.appPasswords === 0 && parts.audit === 1)
        return 'everything';
      throw new Error(`a password half replaced: ${JSON.stringify(parts)}`);
    },
  },
  {
    // A folder deleted for good: its file, the file's contents (current and a version's), the
    // version, and the record of their bytes with the job that deletes them; the bytes after that.
    name: 'a folder deleted for good with its file and versions',
    prepare: folderWithVersionedFile,
    async act(t, input) {
      const agent = await agentFor(t, input.userId!);
      const answer = await agent.post('/api/remove', {
        items: [{ id: input.folderId, type: 'folder', force_delete: true }],
      });
      if (answer.statusCode !== 204) throw new Error(`the deletion answered ${answer.statusCode}`);
    },
    outcome: deletedForGood,
  },
  {
    // The trash emptied of a folder holding a file with a version: as a deletion for good.
    name: 'the trash emptied of a folder with its file and versions',
    async prepare(t) {
      const input = await folderWithVersionedFile(t);
      const agent = await agentFor(t, input.userId!);
      const trashed = await agent.post('/api/remove', { items: [{ id: input.folderId, type: 'folder' }] });
      if (trashed.statusCode !== 204) throw new Error(`the trashing answered ${trashed.statusCode}`);
      return input;
    },
    async act(t, input) {
      const agent = await agentFor(t, input.userId!);
      const answer = await agent.delete('/api/trash/dump');
      if (answer.statusCode !== 204) throw new Error(`emptying the trash answered ${answer.statusCode}`);
    },
    outcome: deletedForGood,
  },
  {
    // A file's bytes made blocks: the blocks it lacks, its list, layout and hash in one transaction,
    // its object deleted after. Never a content naming a block that is not there, never a live block
    // without its object, never the file's bytes lost.
    name: 'a file made blocks',
    async prepare(t) {
      const { user } = await createUser(t.deps);
      const agent = await agentFor(t, user.id);
      const data = blockifiable();
      const file = await uploaded(agent, data, { name: 'model.step', chunkSize: 1024 * 1024 });
      const item = await t.deps.items.findFile(file.id);
      return { userId: user.id, storageKey: item!.storage_key!, sha256: sha256Hex(data) };
    },
    async act(t, input) {
      await t.deps.blockifier.blockify(input.storageKey!);
    },
    async outcome(t, input) {
      const content = await t.deps.database.db
        .selectFrom('file_contents')
        .select(['id', 'layout', 'sha256'])
        .where('storage_key', '=', input.storageKey!)
        .executeTakeFirst();
      if (!content) throw new Error('the content is gone');
      await liveBlocksHaveObjects(t, input.userId!);
      const read = createHash('sha256');
      for await (const chunk of await t.deps.blockStore.read(input.storageKey!)) read.update(chunk as Buffer);
      if (read.digest('hex') !== input.sha256) throw new Error('the file reads other bytes');
      const objectLeft = await (await t.deps.storage.current()).exists(input.storageKey!);
      if (content.layout === 'object') return 'nothing';
      if (content.sha256 !== input.sha256) throw new Error(`blocks with the hash ${content.sha256}`);
      if (objectLeft) throw new Error('made blocks, its object left');
      return 'everything';
    },
  },
  {
    // Collection of an owner's unnamed block beside a named one: marked in one transaction, its
    // object then its row deleted after. The named block is never touched; the unnamed one goes
    // whole (row and object) or stays whole, or stays marked for the next run to finish.
    name: 'blocks collected',
    async prepare(t) {
      const { user } = await createUser(t.deps);
      const named = randomBytes(2000);
      const orphan = randomBytes(2000);
      await t.deps.blockStore.putBlock(user.id, sha256Hex(named), named);
      await t.deps.blockStore.putBlock(user.id, sha256Hex(orphan), orphan);
      const file = await t.deps.database.transaction((trx) =>
        t.deps.blockStore.createContent(trx, {
          ownerId: user.id,
          authorId: user.id,
          hashes: [sha256Hex(named)],
          mimetype: null,
        }),
      );
      // Both untouched for longer than the grace period.
      const long = new Date(Date.now() - 2 * BLOCK_GRACE_MS).toISOString();
      await t.deps.database.db
        .updateTable('blocks')
        .set({ touched_at: long })
        .where('user_id', '=', user.id)
        .execute();
      const rows = await t.deps.database.db
        .selectFrom('blocks')
        .select(['id', 'sha256', 'storage_key'])
        .where('user_id', '=', user.id)
        .execute();
      const orphanRow = rows.find((row) => row.sha256 === sha256Hex(orphan))!;
      return {
        userId: user.id,
        fileKey: file.storageKey,
        fileSha: sha256Hex(named),
        orphanId: orphanRow.id,
        orphanKey: orphanRow.storage_key,
      };
    },
    async act(t) {
      await t.deps.blockCollector.collect(new Date());
    },
    async outcome(t, input) {
      await liveBlocksHaveObjects(t, input.userId!);
      const read = createHash('sha256');
      for await (const chunk of await t.deps.blockStore.read(input.fileKey!)) read.update(chunk as Buffer);
      if (read.digest('hex') !== input.fileSha) throw new Error('the named block reads other bytes');
      const row = await t.deps.database.db
        .selectFrom('blocks')
        .select('state')
        .where('id', '=', input.orphanId!)
        .executeTakeFirst();
      const object = await (await t.deps.storage.current()).exists(input.orphanKey!);
      if (!row && object) throw new Error('a collected block left its object');
      if (!row) return 'everything';
      if (row.state === 'live' && !object) throw new Error('a live block lost its object');
      return 'nothing';
    },
  },
  {
    // Two-factor sign-in turned on: the code's step used, the account marked and its recovery codes.
    name: 'two-factor sign-in turned on with its recovery codes',
    async prepare(t) {
      const { user } = await createUser(t.deps);
      const agent = await agentFor(t, user.id);
      const setup = await agent.post('/api/user/two-factor-authentication', { password: DEFAULT_PASSWORD });
      if (setup.statusCode !== 200) throw new Error(`the setup answered ${setup.statusCode}`);
      return { userId: user.id, secret: setup.json<{ secret: string }>().secret };
    },
    async act(t, input) {
      // Each step's code passes once, used or not by a confirmation that failed: a person sending
      // again types the next code their app shows (the step before, now and the step after pass).
      const credential = await t.deps.database.db
        .selectFrom('two_factor_credentials')
        .select('last_used_step')
        .where('user_id', '=', input.userId!)
        .executeTakeFirstOrThrow();
      const now = Math.floor(t.deps.clock().getTime() / 30_000);
      const step = Math.max(now - 1, Number(credential.last_used_step ?? now - 2) + 1);
      const code = TOTP.generate({ secret: Secret.fromBase32(input.secret!), timestamp: step * 30_000 });
      const agent = await agentFor(t, input.userId!);
      const answer = await agent.post('/api/user/confirmed-two-factor-authentication', { code });
      if (answer.statusCode !== 200) throw new Error(`the confirmation answered ${answer.statusCode}`);
    },
    async outcome(t, input) {
      const user = await t.deps.users.findById(input.userId!);
      const codes = await count(
        t.deps.database.db
          .selectFrom('two_factor_recovery_codes')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', input.userId!)
          .execute(),
      );
      const on = user?.two_factor_confirmed_at !== null;
      if (!on && codes === 0) return 'nothing';
      if (on && codes === 10) return 'everything';
      throw new Error(`two-factor sign-in ${on ? 'on' : 'off'} with ${codes} recovery codes`);
    },
  },
  {
    // An image a WebDAV client PUTs: its item and its thumbnail job.
    name: 'a WebDAV PUT and its thumbnail job',
    async prepare(t) {
      const { user } = await createUser(t.deps);
      const { password } = await t.deps.appPasswords.create(user.id, { name: 'WebDAV' });
      return {
        auth: `Basic ${Buffer.from(`${user.email}:${password}`).toString('base64')}`,
        name: `${randomBytes(4).toString('hex')}.png`,
        jobsBefore: await jobsBefore(t, 'files.thumbnails'),
      };
    },
    async act(t, input) {
      const answer = await t.app.inject({
        method: 'PUT',
        url: `/dav/files/${input.name}`,
        payload: PNG,
        headers: { authorization: input.auth!, 'content-type': 'image/png' },
      });
      if (answer.statusCode !== 201) throw new Error(`the PUT answered ${answer.statusCode}`);
    },
    outcome: imageWithThumbnailJob,
  },
  {
    // A team folder made with an invitation: the folder, its team, the invitation, the invitee's
    // notification and the job that mails the invitation.
    name: 'a team folder with its invitation and mail job',
    async prepare(t) {
      const { user } = await createUser(t.deps);
      const { user: invitee } = await createUser(t.deps);
      return {
        userId: user.id,
        inviteeEmail: invitee.email,
        name: `Team ${randomBytes(4).toString('hex')}`,
        jobsBefore: await jobsBefore(t, 'teams.mail-invitation'),
      };
    },
    async act(t, input) {
      const agent = await agentFor(t, input.userId!);
      const answer = await agent.post('/api/teams/folders', {
        name: input.name,
        invitations: [{ email: input.inviteeEmail, permission: 'can_view' }],
      });
      if (answer.statusCode !== 201) throw new Error(`the team folder answered ${answer.statusCode}`);
    },
    async outcome(t, input) {
      const db = t.deps.database.db;
      const folders = await db
        .selectFrom('items')
        .select('id')
        .where('user_id', '=', input.userId!)
        .where('name', '=', input.name!)
        .execute();
      const ids = folders.map((folder) => folder.id);
      const among = <T>(query: (ids: string[]) => Promise<T[]>) =>
        ids.length === 0 ? Promise.resolve(0) : query(ids).then((rows) => rows.length);
      const parts = {
        folders: ids.length,
        teams: await among((ids) =>
          db.selectFrom('team_folders').select('folder_id').where('folder_id', 'in', ids).execute(),
        ),
        invitations: await among((ids) =>
          db.selectFrom('team_invitations').select('id').where('folder_id', 'in', ids).execute(),
        ),
        jobs: (await waitingJobs(t, 'teams.mail-invitation')) - Number(input.jobsBefore),
      };
      if (Object.values(parts).every((n) => n === 0)) return 'nothing';
      if (Object.values(parts).every((n) => n === 1)) return 'everything';
      throw new Error(`a team folder half made: ${JSON.stringify(parts)}`);
    },
  },
  {
    // A team folder dissolved while an invitation is open: its team and invitation go, and so does
    // the invitee's notification offering it, whose Accept and Decline could only answer 404.
    name: 'a team folder dissolved with its invitation offered',
    async prepare(t) {
      const { user } = await createUser(t.deps);
      const { user: invitee } = await createUser(t.deps);
      const agent = await agentFor(t, user.id);
      const made = await agent.post('/api/teams/folders', {
        name: 'Dissolved',
        invitations: [{ email: invitee.email, permission: 'can_view' }],
      });
      if (made.statusCode !== 201) throw new Error(`the team folder answered ${made.statusCode}`);
      return { userId: user.id, inviteeId: invitee.id, folderId: made.json().data.id };
    },
    async act(t, input) {
      const agent = await agentFor(t, input.userId!);
      const answer = await agent.delete(`/api/teams/folders/${input.folderId}`);
      if (answer.statusCode !== 204) throw new Error(`the dissolving answered ${answer.statusCode}`);
    },
    async outcome(t, input) {
      const db = t.deps.database.db;
      const parts = {
        teams: await count(
          db
            .selectFrom('team_folders')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('folder_id', '=', input.folderId!)
            .execute(),
        ),
        offers: await count(
          db
            .selectFrom('notifications')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('user_id', '=', input.inviteeId!)
            .where('category', '=', 'team-invitation')
            .execute(),
        ),
      };
      if (parts.teams === 1 && parts.offers === 1) return 'nothing';
      if (parts.teams === 0 && parts.offers === 0) return 'everything';
      throw new Error(`a team half dissolved: ${JSON.stringify(parts)}`);
    },
  },
];

/** A 1×1 PNG, so the upload asks for a thumbnail. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYPj/HwADAgH/eL9q2gAAAABJRU5ErkJggg==',
  'base64',
);
