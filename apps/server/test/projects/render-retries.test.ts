import type { ProjectDocument, RenderJobList } from '@atelier/contracts';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { renderJob } from '../../src/modules/projects/render.job';
import { ModelImports } from '../../src/modules/projects/model-imports';
import { waitFor } from '../jobs/support/wait-for';
import { describeEachDatabase } from '../support/each-database';
import { signedInAgent } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';
import { uploadToProject } from './support/chunks';
import { boxStl } from './support/models';

/**
 * A render's retries are for its failures: a run lost with its worker (the machine restarted, the
 * process was killed) is taken up again by the queue without spending one, so a render that failed
 * once after such a restart is still run again. Runs lost again and again end all the same: the
 * queue fails a job whose worker vanished too often, and the render sweep tells the owner.
 */
describeEachDatabase('render retries', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    // The test starts the worker itself, once the render's job looks as a dead worker left it.
    t = await createTestApp({ database: kind });
  });
  afterAll(async () => {
    await t.close();
  });

  it('runs a render again after a failure that follows a run lost with its worker', async () => {
    const { agent } = await signedInAgent(t.app);
    const project = (
      await agent.post('/api/create-project', { project_name: 'Restarted' })
    ).json<ProjectDocument>();
    await uploadToProject(agent, project.id, 'box.stl', boxStl());
    const [render] = (
      await agent.post('/api/generateAssets', { project_id: project.id, category_id: 'mechanical' })
    ).json<RenderJobList>().data;
    const { job_id: jobId } = await t.deps.database.db
      .selectFrom('project_renders')
      .select('job_id')
      .where('id', '=', render!.id)
      .executeTakeFirstOrThrow();

    // Its first run's worker was killed mid-render: the job is still marked running, its lease over.
    const past = new Date(Date.now() - 60_000).toISOString();
    await t.deps.database.db
      .updateTable('jobs')
      .set({ status: 'running', attempts: 1, locked_by: 'gone:1:dead', lease_expires_at: past })
      .where('id', '=', jobId!)
      .execute();
    await t.deps.database.db
      .updateTable('project_renders')
      .set({ status: 'rendering', attempts: 1, started_at: past })
      .where('id', '=', render!.id)
      .execute();

    // The run that takes it up fails on a fault that may pass (storage briefly away).
    const read = vi.spyOn(ModelImports.prototype, 'import').mockRejectedValue(new Error('storage away'));
    const worker = t.deps.jobs.startWorker({ definitions: [renderJob], services: t.deps });
    try {
      const job = await waitFor('the render job to be taken up and end its run', async () => {
        const row = await t.deps.jobs.get(renderJob, jobId!);
        return row && row.attempts === 2 && row.status !== 'running' ? row : undefined;
      });
      expect(read).toHaveBeenCalledTimes(1);
      // Its one failure: the retry follows.
      expect(job).toMatchObject({ status: 'queued', error: 'storage away' });
    } finally {
      await worker.close();
      read.mockRestore();
    }
    const row = await t.deps.database.db
      .selectFrom('project_renders')
      .select(['status', 'error'])
      .where('id', '=', render!.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'queued', error: null });
    const notices = await t.deps.database.db
      .selectFrom('notifications')
      .select('category')
      .where('category', '=', 'render-failed')
      .execute();
    expect(notices).toEqual([]);
  });
});
