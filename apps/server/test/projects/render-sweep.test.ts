import type {
  NotificationList,
  ProjectAssetPayload,
  ProjectDocument,
  RenderJobList,
} from '@atelier/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { z } from 'zod';
import { Scheduler } from '../../src/jobs/scheduler';
import { projectsTasks, INTERRUPTED_RENDER, STUCK_RENDER_MS } from '../../src/modules/projects/render-sweep';
import { renderJob } from '../../src/modules/projects/render.job';
import { WriteFaults } from '../faults/write-faults';
import { waitFor } from '../jobs/support/wait-for';
import { connectSocket, type ClientSocket } from '../realtime/support/sockets';
import type { TestAgent } from '../support/agent';
import { describeEachDatabase } from '../support/each-database';
import { createSession, signedInAgent } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';
import { uploadToProject } from './support/chunks';
import { boxStl } from './support/models';

type AssetEvent = z.infer<typeof ProjectAssetPayload>;

describeEachDatabase('the stuck-render sweep', (kind) => {
  // Renders are stamped with the time they are queued; the clock starts there and moves on.
  let now = new Date();
  let t: TestApp;
  let agent: TestAgent;
  let socket: ClientSocket;
  const events: AssetEvent[] = [];
  const faults = new WriteFaults();

  beforeAll(async () => {
    t = await createTestApp({ database: kind, clock: () => now, plugins: [faults] });
    const baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const signedIn = await signedInAgent(t.app);
    agent = signedIn.agent;
    // The studio's open page.
    socket = await connectSocket(baseUrl, { session: await createSession(t.deps, signedIn.user) });
    socket.on('project.asset', (payload) => events.push(payload));
  });
  afterAll(async () => {
    socket?.close();
    await t.close();
  });

  const renderRow = (id: string) =>
    t.deps.database.db
      .selectFrom('project_renders')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  it('enqueues again a render whose job is gone, fails one whose job gave up, and leaves one whose job waits', async () => {
    const project = (
      await agent.post('/api/create-project', { project_name: 'Sweep' })
    ).json<ProjectDocument>();
    for (const name of ['lost.stl', 'gave-up.stl', 'waiting.stl'])
      await uploadToProject(agent, project.id, name, boxStl());
    const queued = (
      await agent.post('/api/generateAssets', { project_id: project.id, category_id: 'mechanical' })
    ).json<RenderJobList>().data;
    const idOf = (name: string) => queued.find((r) => r.attributes.input_name === name)!.id;
    const [lost, gaveUp, waiting] = await Promise.all(
      ['lost.stl', 'gave-up.stl', 'waiting.stl'].map((name) => renderRow(idOf(name))),
    );
    for (const render of [lost!, gaveUp!, waiting!])
      expect(await t.deps.jobs.get(renderJob, render.job_id!)).toMatchObject({ status: 'queued' });

    // No worker ran: one job vanished from the queue; another was taken by a worker, which the queue
    // then gave up on (its workers kept dying), so the render still reads `rendering`.
    const { db } = t.deps.database;
    await db.deleteFrom('jobs').where('id', '=', lost!.job_id!).execute();
    await db
      .updateTable('jobs')
      .set({ status: 'failed', attempts: 3 })
      .where('id', '=', gaveUp!.job_id!)
      .execute();
    await db
      .updateTable('project_renders')
      .set({ status: 'rendering', attempts: 1, progress: 40 })
      .where('id', '=', gaveUp!.id)
      .execute();

    const scheduler = new Scheduler({ database: t.deps.database, now: () => now, logger: t.deps.logger });
    scheduler.start(projectsTasks(t.deps));
    const queuedAt = now.getTime();
    try {
      // Too young to be called stuck: nothing moves.
      now = new Date(queuedAt + STUCK_RENDER_MS - 60_000);
      await scheduler.tick();
      expect((await renderRow(lost!.id)).job_id).toBe(lost!.job_id);
      expect((await renderRow(gaveUp!.id)).status).toBe('rendering');

      now = new Date(queuedAt + STUCK_RENDER_MS + 5 * 60_000);
      await scheduler.tick();
    } finally {
      await scheduler.stop();
    }

    const requeued = await renderRow(lost!.id);
    expect(requeued).toMatchObject({ status: 'queued', error: null });
    expect(requeued.job_id).not.toBe(lost!.job_id);
    expect(await t.deps.jobs.get(renderJob, requeued.job_id!)).toMatchObject({
      status: 'queued',
      payload: { renderId: lost!.id },
    });
    expect(await renderRow(waiting!.id)).toEqual(waiting);

    // The studio lists the failed render with its reason, and an open page heard of it.
    const list = (await agent.get(`/api/browse/projects/${project.id}`)).json<{
      data: RenderJobList['data'];
    }>();
    expect(list.data.find((r) => r.id === gaveUp!.id)?.attributes).toMatchObject({
      status: 'failed',
      error: INTERRUPTED_RENDER,
    });
    const told = await waitFor('the failed render’s event', () =>
      events.find((e) => e.job_id === gaveUp!.id && e.status === 'failed'),
    );
    expect(told).toMatchObject({ error: INTERRUPTED_RENDER, project_id: project.id });
    expect(events.some((e) => e.job_id === waiting!.id && e.status !== 'queued')).toBe(false);
    // The owner is told of the failure; with renders still queued, not that the project is done.
    const notifications = (await agent.get('/api/notifications')).json<NotificationList>().data;
    expect(notifications.map((n) => [n.attributes.category, n.attributes.description])).toEqual([
      ['render-failed', expect.stringContaining('gave-up.stl')],
    ]);
  });
  it('leaves a render that moved within the limit on the app’s clock, even with its job gone', async () => {
    now = new Date();
    const project = (
      await agent.post('/api/create-project', { project_name: 'Moving' })
    ).json<ProjectDocument>();
    await uploadToProject(agent, project.id, 'moving.stl', boxStl());
    const [queued] = (
      await agent.post('/api/generateAssets', { project_id: project.id, category_id: 'mechanical' })
    ).json<RenderJobList>().data;
    const render = await renderRow(queued!.id);
    await t.deps.database.db.deleteFrom('jobs').where('id', '=', render.job_id!).execute();

    // Its runner reports progress late on (by the app's clock), then the sweep comes.
    const queuedAt = now.getTime();
    now = new Date(queuedAt + STUCK_RENDER_MS + 5 * 60_000);
    await t.deps.projectRenders.saveProgress(render, 30);
    now = new Date(queuedAt + STUCK_RENDER_MS + 10 * 60_000);
    const scheduler = new Scheduler({ database: t.deps.database, now: () => now, logger: t.deps.logger });
    scheduler.start(projectsTasks(t.deps));
    await scheduler.tick();
    await scheduler.stop();
    expect(await renderRow(render.id)).toMatchObject({
      status: 'queued',
      progress: 30,
      job_id: render.job_id,
    });
  });

  it('enqueues a lost render once, even when its first try fails before the render names its new job', async () => {
    now = new Date();
    const project = (
      await agent.post('/api/create-project', { project_name: 'Once' })
    ).json<ProjectDocument>();
    await uploadToProject(agent, project.id, 'once.stl', boxStl());
    const [queued] = (
      await agent.post('/api/generateAssets', { project_id: project.id, category_id: 'mechanical' })
    ).json<RenderJobList>().data;
    const render = await renderRow(queued!.id);
    const { db } = t.deps.database;
    await db.deleteFrom('jobs').where('id', '=', render.job_id!).execute();
    const jobsOfRender = async () =>
      (await db.selectFrom('jobs').select(['id', 'payload']).execute()).filter((job) =>
        String(job.payload).includes(render.id),
      );

    now = new Date(now.getTime() + STUCK_RENDER_MS + 60_000);
    // The sweep takes the row and enqueues the job, then fails before the row names it.
    const struck = await faults.run(2, 'throw', () => t.deps.renderSweep.sweep(now));
    expect(struck.error).not.toBeNull();
    expect(await jobsOfRender()).toEqual([]);
    expect((await renderRow(render.id)).job_id).toBe(render.job_id);

    // The next sweep enqueues it, once; the one after finds its job waiting.
    for (const later of [5, 10]) {
      now = new Date(now.getTime() + later * 60_000);
      await t.deps.renderSweep.sweep(now);
    }
    const jobs = await jobsOfRender();
    expect(jobs).toHaveLength(1);
    expect((await renderRow(render.id)).job_id).toBe(jobs[0]!.id);
  });
});
