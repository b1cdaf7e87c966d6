import type { ItemResource, ProjectDocument, ProjectRenderList, RenderJobList } from '@atelier/contracts';
import { MAX_MODEL_BYTES } from '@atelier/render';
import type { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import type { ByteRange } from '../../src/storage/storage';
import { waitFor } from '../jobs/support/wait-for';
import { describeEachDatabase } from '../support/each-database';
import { SESSION_COOKIE } from '../../src/plugins/session.plugin';
import { signedInAgent } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';
import type { TestAgent } from '../support/agent';
import { uploadToProject } from './support/chunks';
import { boxStl } from './support/models';

describeEachDatabase('model imports', (kind) => {
  let t: TestApp;

  let baseUrl: string;

  beforeAll(async () => {
    t = await createTestApp({ database: kind });
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterEach(() => vi.restoreAllMocks());
  afterAll(() => t.close());

  async function storedModel(
    agent: TestAgent,
  ): Promise<{ project: ProjectDocument; file: ItemResource; key: string }> {
    const project = (
      await agent.post('/api/create-project', { project_name: 'Parts' })
    ).json<ProjectDocument>();
    const file = (await uploadToProject(agent, project.id, 'box.stl', boxStl()))
      .at(-1)!
      .json<{ data: ItemResource }>().data;
    const row = await t.deps.database.db
      .selectFrom('items')
      .select('storage_key')
      .where('id', '=', file.id)
      .executeTakeFirstOrThrow();
    return { project, file, key: row.storage_key! };
  }

  /**
   * Storage reads of the given objects, seen as they start; while `held`, they start but deliver
   * nothing until `release()`. Every other read passes straight through to the real storage.
   */
  async function watchReads(keys: string[], { held = false } = {}) {
    const storage = await t.deps.storage.current();
    const read = storage.get.bind(storage);
    const started: string[] = [];
    let release!: () => void;
    const released = held ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
    vi.spyOn(storage, 'get').mockImplementation(async (key: string, range?: ByteRange): Promise<Readable> => {
      if (!keys.includes(key)) return read(key, range);
      started.push(key);
      await released;
      return read(key, range);
    });
    return { started, release: () => release() };
  }

  it('refuses a model over the size limit by its size on record, before reading a byte of it', async () => {
    const { agent } = await signedInAgent(t.app);
    const { project, file, key } = await storedModel(agent);
    // The row claims more than the limit; the bytes behind it are a small box that would import fine.
    await t.deps.database.db
      .updateTable('items')
      .set({ size: MAX_MODEL_BYTES + 1 })
      .where('id', '=', file.id)
      .execute();
    const reads = await watchReads([key]);

    const mesh = await agent.get(`/api/projects/inputs/${file.id}/mesh`);
    expect(mesh.statusCode).toBe(413);
    expect(mesh.json()).toMatchObject({
      code: 'payload_too_large',
      message: expect.stringContaining(`${MAX_MODEL_BYTES / 1048576} MB`),
    });

    expect(await t.deps.modelPreviews.generate(file.id)).toBe(false);

    const [render] = (
      await agent.post('/api/generateAssets', { project_id: project.id, category_id: 'mechanical' })
    ).json<RenderJobList>().data;
    const run = t.deps.projectRenders.run(render!.id, {
      attempt: 1,
      failures: 0,
      signal: new AbortController().signal,
      retries: 0,
    });
    await expect(run).rejects.toThrow(/limit/);
    const renders = (await agent.get(`/api/browse/projects/${project.id}`)).json<ProjectRenderList>().data;
    expect(renders[0]!.attributes).toMatchObject({ status: 'failed', error: expect.stringMatching(/limit/) });

    expect(reads.started).toEqual([]);
  });

  it('runs no more imports at once than the process allows, the others waiting their turn or leaving the line when stopped', async () => {
    const imports = t.deps.modelImports;
    const owners = [];
    for (let i = 0; i < imports.processLimit + 3; i++) {
      const { agent } = await signedInAgent(t.app);
      owners.push({ agent, ...(await storedModel(agent)) });
    }
    const reads = await watchReads(
      owners.map((o) => o.key),
      { held: true },
    );

    const staying = owners.slice(0, -1);
    const leaving = owners.at(-1)!;
    const answers = staying.map(({ agent, file }) => agent.get(`/api/projects/inputs/${file.id}/mesh`));
    await waitFor('every viewer request to take a turn or wait for one', () => {
      const { running, waiting } = imports.load;
      return running + waiting === staying.length && reads.started.length >= imports.processLimit;
    });
    // Only the files of the imports holding a turn are being read; the rest wait without a byte in memory.
    expect(reads.started).toHaveLength(imports.processLimit);
    expect(imports.load).toEqual({ running: imports.processLimit, waiting: 2 });

    // A browser that gives up on its request (the viewer moved on to another file) leaves the line.
    const client = new AbortController();
    const gone = fetch(`${baseUrl}/api/projects/inputs/${leaving.file.id}/mesh`, {
      headers: { cookie: `${SESSION_COOKIE}=${leaving.agent.cookie(SESSION_COOKIE)}` },
      signal: client.signal,
    }).catch((error: unknown) => error);
    await waitFor('the browser’s request to wait for a turn', () => imports.load.waiting === 3);
    client.abort();
    expect(await gone).toMatchObject({ name: 'AbortError' });
    await waitFor('the request of the gone browser to leave the line', () => imports.load.waiting === 2);

    reads.release();
    expect((await Promise.all(answers)).map((a) => a.statusCode)).toEqual(staying.map(() => 200));
    expect(reads.started).toHaveLength(staying.length);
    expect(imports.load).toEqual({ running: 0, waiting: 0 });
  });

  it('answers 429 to a user who already has as many viewer imports under way as one user may', async () => {
    const imports = t.deps.modelImports;
    const { agent } = await signedInAgent(t.app);
    const { file, key } = await storedModel(agent);
    const reads = await watchReads([key], { held: true });

    const answers = Array.from({ length: imports.userLimit + 1 }, () =>
      agent.get(`/api/projects/inputs/${file.id}/mesh`),
    );
    // The admitted imports cannot finish while their reads are held, so the first answer is the refusal.
    const first = await Promise.race(answers);
    expect(first.statusCode).toBe(429);
    expect(first.json().code).toBe('throttled');

    reads.release();
    const statuses = (await Promise.all(answers)).map((a) => a.statusCode).sort();
    expect(statuses).toEqual([...Array.from({ length: imports.userLimit }, () => 200), 429]);
    // Finished imports give the user's places back.
    expect((await agent.get(`/api/projects/inputs/${file.id}/mesh`)).statusCode).toBe(200);
  });
});
