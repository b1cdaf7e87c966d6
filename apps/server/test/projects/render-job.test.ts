import type {
  NotificationList,
  ProjectAssetPayload,
  ProjectDocument,
  ProjectFileList,
  RenderJobList,
} from '@atelier/contracts';
import { probeVideo } from '@atelier/render';
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { z } from 'zod';
import type { JobWorker } from '../../src/jobs/job-queue';
import { filesJobDefinitions } from '../../src/modules/files/files.module';
import { projectsJobDefinitions } from '../../src/modules/projects/projects.module';
import { RenderCatalogue } from '../../src/modules/projects/render-catalogue';
import { chunkRequest, readZip } from '../files/files-harness';
import { waitFor } from '../jobs/support/wait-for';
import { connectSocket, type ClientSocket } from '../realtime/support/sockets';
import type { TestAgent } from '../support/agent';
import { describeEachDatabase } from '../support/each-database';
import { createSession, createUser, signedInAgent } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';
import { uploadToProject } from './support/chunks';
import { boxStl, brokenStl } from './support/models';
import { killedWhileFiling } from '../support/killed-while-filing';

type AssetEvent = z.infer<typeof ProjectAssetPayload>;

// Tiny scenes keep the real engine fast: 48 px stills and a one-second, 4 fps turntable.
const TINY = {
  resolution: { width: 48, height: 48 },
  stills: 1,
  video: true,
  turntable: { seconds: 1, fps: 4 },
} as const;

describeEachDatabase('render jobs', (kind) => {
  let t: TestApp;
  let worker: JobWorker;
  let socket: ClientSocket;
  let baseUrl: string;
  const events: AssetEvent[] = [];
  const scratch = mkdtempSync(join(tmpdir(), 'atelier-render-test-'));

  beforeAll(async () => {
    t = await createTestApp({ database: kind });
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    worker = t.deps.jobs.startWorker({
      definitions: [...projectsJobDefinitions, ...filesJobDefinitions],
      services: t.deps,
    });
  });
  afterAll(async () => {
    socket?.close();
    await worker.close();
    await t.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  // Two renders with their product files (spin frames, GLB, USDZ) on a busy machine: a longer limit.
  it('renders each input into stored stills and a turntable, reports progress in realtime, one broken input loses nothing else, and the owner is told', async () => {
    const { agent, user } = await signedInAgent(t.app);
    socket = await connectSocket(baseUrl, { session: await createSession(t.deps, user) });
    socket.on('project.asset', (payload) => events.push(payload));

    const project = await tinyProject(agent, 'Tiny');
    await uploadToProject(agent, project.id, 'good.stl', boxStl());
    await uploadToProject(agent, project.id, 'broken.stl', brokenStl());
    const usedBefore = (await agent.get('/api/user/storage')).json().data.used;

    const jobs = (
      await agent.post('/api/generateAssets', { project_id: project.id, category_id: 'mechanical' })
    ).json<RenderJobList>().data;
    const goodJob = jobs.find((j) => j.attributes.input_name === 'good.stl')!;
    const brokenJob = jobs.find((j) => j.attributes.input_name === 'broken.stl')!;

    const finished = (id: string) =>
      events.find((e) => e.job_id === id && (e.status === 'done' || e.status === 'failed'));
    await waitFor('both renders to finish', () => finished(goodJob.id) && finished(brokenJob.id), 120_000);

    const goodEvents = events.filter((e) => e.job_id === goodJob.id);
    expect(goodEvents[0]).toMatchObject({ status: 'queued', progress: 0, project_id: project.id });
    expect(goodEvents.some((e) => e.status === 'rendering')).toBe(true);
    const percents = goodEvents.filter((e) => e.status === 'rendering').map((e) => e.progress);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    const done = goodEvents.at(-1)!;
    expect(done).toMatchObject({ status: 'done', progress: 100 });
    expect(done.file?.attributes).toMatchObject({ mimetype: 'image/png' });

    const failed = events.filter((e) => e.job_id === brokenJob.id).at(-1)!;
    expect(failed.status).toBe('failed');
    expect(failed.error).toEqual(expect.any(String));
    expect(failed.error!.length).toBeGreaterThan(5);

    // The owner is told of the failure, with its reason, and once that the project's renders are done.
    const notifications = (await agent.get('/api/notifications')).json<NotificationList>().data;
    const told = notifications.map((n) => n.attributes);
    expect(told.map((n) => n.category).sort()).toEqual(['render-done', 'render-failed']);
    const failure = told.find((n) => n.category === 'render-failed')!;
    expect(failure.description).toContain('broken.stl');
    expect(failure.description.toLowerCase()).toContain(
      (await t.deps.i18n.translate(failed.error!)).toLowerCase(),
    );
    expect(failure.action).toMatchObject({
      type: 'route',
      params: { route: 'ProjectDetails', id: project.id },
    });
    expect(told.find((n) => n.category === 'render-done')).toMatchObject({
      description: expect.stringContaining('Tiny'),
      action: { type: 'route', params: { route: 'ProjectDetailsOutput', id: project.id } },
    });

    // The inputs show where their renders stand.
    const inputs = (
      await agent.get(`/api/browse/projects/files/${project.id}?type=input`)
    ).json<ProjectFileList>();
    const status = Object.fromEntries(
      inputs.data.map((f) => [f.attributes.name, f.meta.render?.attributes.status]),
    );
    expect(status).toEqual({ 'good.stl': 'done', 'broken.stl': 'failed' });

    // Every model file gets a 3D preview thumbnail from a background job; one that does not import keeps none.
    const good = inputs.data.find((f) => f.attributes.name === 'good.stl')!;
    const preview = await waitFor(
      'the model preview',
      async () => {
        const answer = await agent.get(`/thumbnail/sm/${good.id}`);
        return answer.statusCode === 200 ? answer : undefined;
      },
      120_000,
    );
    expect(preview.headers['content-type']).toBe('image/webp');
    expect((await sharp(preview.rawPayload).metadata()).width).toBe(256);
    const brokenInput = inputs.data.find((f) => f.attributes.name === 'broken.stl')!;
    expect(await t.deps.modelPreviews.generate(brokenInput.id)).toBe(false);
    expect((await agent.get(`/thumbnail/sm/${brokenInput.id}`)).statusCode).toBe(404);

    // Outputs are files of the project's output folder, filtered by type, counted in the owner's storage.
    const outputs = (await agent.get(`/api/browse/projects/files/${project.id}`)).json<ProjectFileList>();
    expect(outputs.data.map((f) => f.attributes.mimetype).sort()).toEqual(['image/png', 'video/mp4']);
    // Named by the model and what each shows, in readable words: the mechanical category's first camera.
    expect(outputs.data.map((f) => f.attributes.name).sort()).toEqual([
      'good-isometric.png',
      'good-turntable.mp4',
    ]);
    expect(
      outputs.data.every((f) => f.attributes.parent_id === project.data.attributes.output_folder_id),
    ).toBe(true);
    const pngs = (
      await agent.get(`/api/browse/projects/files/${project.id}?mimetype=png`)
    ).json<ProjectFileList>();
    expect(pngs.data.map((f) => f.attributes.mimetype)).toEqual(['image/png']);
    const mp4s = (await agent.get('/api/browse/projects/files/all?mimetype=mp4')).json<ProjectFileList>();
    expect(mp4s.data.map((f) => f.attributes.mimetype)).toEqual(['video/mp4']);
    // Beside them, filed in the output folder for a product page: the model as a GLB and a USDZ, and
    // the turntable's frames as a spin in a folder of its own (all four frames of this short turn).
    const outputFolderId = project.data.attributes.output_folder_id!;
    const listing = async (folderId: string) =>
      (await agent.get(`/api/browse/folders/${folderId}`)).json<ProjectFileList>().data;
    const filed = await listing(outputFolderId);
    expect(filed.map((f) => f.attributes.name).sort()).toEqual([
      'good-isometric.png',
      'good-spin',
      'good-turntable.mp4',
      'good.glb',
      'good.usdz',
    ]);
    const spinFolder = filed.find((f) => f.attributes.name === 'good-spin')!;
    const frames = await listing(spinFolder.id);
    expect(frames.map((f) => [f.attributes.name, f.attributes.mimetype]).sort()).toEqual(
      [0, 1, 2, 3].map((n) => [`good-spin-0${n}.webp`, 'image/webp']),
    );
    const glb = (await agent.get(filed.find((f) => f.attributes.name === 'good.glb')!.attributes.file_url!))
      .rawPayload;
    expect(glb.subarray(0, 4).toString('latin1')).toBe('glTF');
    const outputBytes = [...filed, ...frames].reduce((sum, f) => sum + (f.attributes.filesize ?? 0), 0);
    expect((await agent.get('/api/user/storage')).json().data.used).toBe(usedBefore + outputBytes);
    // The bytes the render reserved became the outputs' used bytes; nothing stays held.
    expect(await usageOf(user.id)).toEqual({ used_bytes: usedBefore + outputBytes, reserved_bytes: 0 });

    // The still has the asked size; the turntable has the asked length, rate and a browser-playable format.
    const still = await agent.get(pngs.data[0]!.attributes.file_url!);
    const meta = await sharp(still.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 48, 48]);
    const videoPath = join(scratch, 'turntable.mp4');
    writeFileSync(videoPath, (await agent.get(mp4s.data[0]!.attributes.file_url!)).rawPayload);
    const probe = await probeVideo(videoPath);
    expect(probe).toMatchObject({
      codec: 'h264',
      pixFmt: 'yuv420p',
      width: 48,
      height: 48,
      fps: 4,
      frames: 4,
    });
    expect(probe.durationSeconds).toBeCloseTo(1, 1);

    // The output zip streams every output; the gallery groups them under today's date.
    const zip = await agent.get(`/api/outputZip?project_id=${project.id}`);
    expect(zip.headers['content-type']).toBe('application/zip');
    const entries = readZip(zip.rawPayload);
    expect([...entries.keys()].filter((name) => !name.endsWith('/')).sort()).toEqual(
      [
        ...filed.filter((f) => f.type !== 'folder').map((f) => `Output/${f.attributes.name}`),
        ...frames.map((f) => `Output/good-spin/${f.attributes.name}`),
      ].sort(),
    );
    expect(entries.get(`Output/${pngs.data[0]!.attributes.name}`)!.equals(still.rawPayload)).toBe(true);

    const today = new Date().toISOString().slice(0, 10);
    const dates = (await agent.get('/api/browse/projects/gallery/all')).json();
    expect(dates.data).toEqual([{ date: today, images: 1, videos: 1 }]);
    const day = (await agent.get(`/api/browse/projects/gallery/${project.id}/data?date=${today}`)).json()
      .data;
    expect([day.images.length, day.videos.length]).toEqual([1, 1]);
    expect(
      (await agent.get(`/api/browse/projects/gallery/all?search=nothing-like-this`)).json().data,
    ).toEqual([]);
    expect((await agent.get(`/api/browse/projects/gallery/all?search=good`)).json().data).toHaveLength(1);
    const dayZip = readZip((await agent.get(day.links.zip)).rawPayload);
    expect([...dayZip.keys()].sort()).toEqual(outputs.data.map((f) => f.attributes.name).sort());
  }, 120_000);

  it('fails a render whose outputs would pass the owner’s storage capacity, storing none of them', async () => {
    const input = boxStl();
    const { user } = await createUser(t.deps, { storageCapacity: input.length + 144 });
    const { agent } = await signedInAgent(t.app, user);
    const project = await tinyProject(agent, 'Full');
    await uploadToProject(agent, project.id, 'box.stl', input);
    const [job] = (
      await agent.post('/api/generateAssets', { project_id: project.id, category_id: 'product' })
    ).json<RenderJobList>().data;

    const render = await waitFor(
      'the render to fail',
      async () => {
        const list = (await agent.get(`/api/browse/projects/${project.id}`)).json<{
          data: RenderJobList['data'];
        }>();
        const found = list.data.find((r) => r.id === job!.id);
        return found?.attributes.status === 'failed' ? found : undefined;
      },
      120_000,
    );
    expect(render.attributes.error).toBe('errors.storage_limit_exceeded');
    expect(
      (await agent.get(`/api/browse/projects/files/${project.id}`)).json<ProjectFileList>().data,
    ).toEqual([]);
    expect((await agent.get('/api/user/storage')).json().data.used).toBe(input.length);
  });

  it('counts what uploads under way hold against the room a render’s outputs need, and lets go of its own hold', async () => {
    const input = boxStl();
    // Room for the outputs of a tiny render many times over, were it not for the upload below.
    const room = 256 * 1024;
    const { user } = await createUser(t.deps, { storageCapacity: input.length + room });
    const { agent } = await signedInAgent(t.app, user);
    const project = await tinyProject(agent, 'Busy');
    await uploadToProject(agent, project.id, 'box.stl', input);
    // An upload under way has stored a chunk that holds all but 100 bytes of the room.
    const held = room - 100;
    const chunk = await chunkRequest(agent, randomBytes(held), {
      name: 'big.bin',
      key: 'busy-big.bin.part',
      last: false,
    });
    expect(chunk.statusCode).toBe(204);
    expect(await usageOf(user.id)).toEqual({ used_bytes: input.length, reserved_bytes: held });

    const [job] = (
      await agent.post('/api/generateAssets', { project_id: project.id, category_id: 'product' })
    ).json<RenderJobList>().data;
    const render = await waitFor(
      'the render to finish',
      async () => {
        const list = (await agent.get(`/api/browse/projects/${project.id}`)).json<{
          data: RenderJobList['data'];
        }>();
        const found = list.data.find((r) => r.id === job!.id);
        return found?.attributes.status === 'failed' || found?.attributes.status === 'done'
          ? found
          : undefined;
      },
      120_000,
    );
    expect(render.attributes.status).toBe('failed');
    expect(render.attributes.error).toBe('errors.storage_limit_exceeded');
    expect(
      (await agent.get(`/api/browse/projects/files/${project.id}`)).json<ProjectFileList>().data,
    ).toEqual([]);
    // Only the upload holds bytes: the render's hold is gone with its failure.
    expect(await usageOf(user.id)).toEqual({ used_bytes: input.length, reserved_bytes: held });
  });

  it('lets go of what a render reserved when storing its outputs fails', async () => {
    // A render of its last attempt, run here rather than by the worker, so its failure is final at once.
    const { input, user, renderId } = await renderOfOwnRun('Broken disk');

    const storage = await t.deps.storage.current();
    const put = vi.spyOn(storage, 'put').mockRejectedValue(new Error('disk full'));
    try {
      const run = t.deps.projectRenders.run(renderId, {
        attempt: 2,
        failures: 1,
        retries: 1,
        signal: new AbortController().signal,
      });
      await expect(run).rejects.toThrow('disk full');
      expect(put).toHaveBeenCalled();
    } finally {
      put.mockRestore();
    }
    expect(await usageOf(user.id)).toEqual({ used_bytes: input.length, reserved_bytes: 0 });
  });

  it('finishes a render whose progress could not be written once, as progress is told on a best effort', async () => {
    const { renderId } = await renderOfOwnRun('Busy database');
    const save = vi
      .spyOn(t.deps.projectRenders, 'saveProgress')
      .mockRejectedValueOnce(new Error('database is locked'));
    try {
      await runAsItsJob(renderId);
      expect(save).toHaveBeenCalled();
    } finally {
      save.mockRestore();
    }
    expect(await renderStatus(renderId)).toBe('done');
  });

  it('files a render once when two runs of it overlap (a job claimed again while the first still ran)', async () => {
    const { input, user, agent, renderId } = await renderOfOwnRun('Twice');

    const run = () => runAsItsJob(renderId);
    await Promise.all([run(), run()]);

    const outputs = await t.deps.database.db
      .selectFrom('project_outputs')
      .innerJoin('items', 'items.id', 'project_outputs.item_id')
      .select(['items.name', 'items.size'])
      .where('project_outputs.render_id', '=', renderId)
      .execute();
    const names = outputs.map((output) => output.name);
    expect(names.length).toBeGreaterThan(0);
    expect(new Set(names).size).toBe(names.length);
    expect(names.filter((name) => / \(1\)\./.test(name))).toEqual([]);
    const setBytes = outputs.reduce((sum, output) => sum + Number(output.size), 0);
    expect(await usageOf(user.id)).toEqual({ used_bytes: input.length + setBytes, reserved_bytes: 0 });
    const notices = (await agent.get('/api/notifications')).json<NotificationList>().data;
    expect(notices).toHaveLength(1);
  });

  it('stays done, filed once, when telling the page fails after the filing committed', async () => {
    const { renderId } = await renderOfOwnRun('Told late');
    const filedOutputs = () =>
      t.deps.database.db
        .selectFrom('project_outputs')
        .select('item_id')
        .where('render_id', '=', renderId)
        .execute();
    // Reading the first filed file back for the page's event fails once (a busy database).
    const view = vi.spyOn(t.deps.files, 'view').mockRejectedValueOnce(new Error('database is locked'));
    const run = () => runAsItsJob(renderId);
    try {
      // Not a failure of the job: a retry would render the set and file it a second time.
      await run();
      expect(view).toHaveBeenCalled();
    } finally {
      view.mockRestore();
    }
    expect(await renderStatus(renderId)).toBe('done');
    const filed = await filedOutputs();
    expect(filed.length).toBeGreaterThan(0);
    // A run of the same job claimed again later leaves it as it is.
    await run();
    expect(await renderStatus(renderId)).toBe('done');
    expect(await filedOutputs()).toEqual(filed);
  });

  it('stops taking the spin frames when its job is stopped (cancelled, out of time, shut down), and the render waits again', async () => {
    const { renderId } = await renderOfOwnRun('Stopped');
    const job = new AbortController();
    const engine = await import('@atelier/render');
    const signals: Array<AbortSignal | undefined> = [];
    // The job is stopped just as the spin frames start.
    const load = vi.spyOn(RenderCatalogue.prototype, 'load').mockResolvedValue({
      ...engine,
      extractSpinFrames: (video, outDir, options) => {
        signals.push(options?.signal);
        job.abort();
        return engine.extractSpinFrames(video, outDir, options);
      },
    });
    try {
      const run = t.deps.projectRenders.run(renderId, {
        attempt: 1,
        failures: 0,
        retries: 1,
        signal: job.signal,
      });
      await expect(run).rejects.toThrow();
    } finally {
      load.mockRestore();
    }
    expect(signals).toEqual([job.signal]);
    expect(await renderStatus(renderId)).toBe('queued');
    const outputs = await t.deps.database.db
      .selectFrom('project_outputs')
      .select('item_id')
      .where('render_id', '=', renderId)
      .execute();
    expect(outputs).toEqual([]);
  });

  it('leaves no output bytes behind when its process is killed after storing them, before filing them', async () => {
    const { renderId } = await renderOfOwnRun('Killed');
    // The render's own writes, not those of the background jobs of its model running meanwhile.
    const ofRender = new AsyncLocalStorage<true>();
    // The process dies as the outputs are being filed.
    const killed = await killedWhileFiling(t, { counts: () => !!ofRender.getStore(), failFiling: true });
    try {
      await expect(
        ofRender.run(true, () =>
          t.deps.projectRenders.run(renderId, {
            attempt: 1,
            failures: 0,
            retries: 1,
            signal: new AbortController().signal,
          }),
        ),
      ).rejects.toThrow('killed');
    } finally {
      killed.restore();
    }
    expect(killed.written.length).toBeGreaterThan(0);
    expect(await killed.leftAfterSweep()).toEqual([]);
  });

  /** A new project whose settings make tiny scenes (TINY), each setting checked as it is stored. */
  async function tinyProject(agent: TestAgent, name: string): Promise<ProjectDocument> {
    const project = (await agent.post('/api/create-project', { project_name: name })).json<ProjectDocument>();
    for (const [key, value] of Object.entries(TINY)) {
      const answer = await agent.post('/api/update-project-settings', {
        project_id: project.id,
        updateKey: key,
        updateValue: value,
      });
      expect(answer.statusCode, key).toBe(200);
    }
    return project;
  }

  /**
   * A project of tiny scenes with one model, and a render of it as the queue would leave it, for a
   * test that runs the render itself.
   */
  async function renderStatus(renderId: string): Promise<string> {
    const render = await t.deps.database.db
      .selectFrom('project_renders')
      .select('status')
      .where('id', '=', renderId)
      .executeTakeFirstOrThrow();
    return render.status;
  }

  /** One run of the render as its job's first attempt does, with a retry to follow a failure. */
  function runAsItsJob(renderId: string) {
    return t.deps.projectRenders.run(renderId, {
      attempt: 1,
      failures: 0,
      retries: 1,
      signal: new AbortController().signal,
    });
  }

  async function renderOfOwnRun(projectName: string) {
    const input = boxStl();
    const { user } = await createUser(t.deps, { storageCapacity: 1024 ** 3 });
    const { agent } = await signedInAgent(t.app, user);
    const project = await tinyProject(agent, projectName);
    await uploadToProject(agent, project.id, 'box.stl', input);
    const [model] = (
      await agent.get(`/api/browse/projects/files/${project.id}?type=input`)
    ).json<ProjectFileList>().data;
    const renderId = await queuedRender(user.id, project.id, model!.id);
    return { input, user, agent, renderId };
  }

  async function queuedRender(userId: string, projectId: string, inputId: string) {
    const id = randomUUID();
    const now = new Date().toISOString();
    await t.deps.database.db
      .insertInto('project_renders')
      .values({
        id,
        project_id: projectId,
        user_id: userId,
        input_id: inputId,
        input_name: 'box.stl',
        category_id: 'product',
        engine: 'draft',
        status: 'queued',
        progress: 0,
        error: null,
        attempts: 0,
        created_at: now,
        updated_at: now,
      })
      .execute();
    return id;
  }

  function usageOf(userId: string) {
    return t.deps.database.db
      .selectFrom('storage_usage')
      .select(['used_bytes', 'reserved_bytes'])
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
  }
});
