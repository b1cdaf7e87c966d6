import type { ProjectDocument, RenderJobList, RenderQueue } from '@atelier/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestAgent } from '../support/agent';
import { describeEachDatabase } from '../support/each-database';
import { signedInAgent } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';
import { uploadToProject } from './support/chunks';
import { boxStl } from './support/models';

describeEachDatabase('the render queue', (kind) => {
  let now = new Date('2026-05-04T10:00:00.000Z');
  let t: TestApp;

  beforeAll(async () => {
    // No worker runs: the renders stay where the test puts them.
    t = await createTestApp({ database: kind, clock: () => now });
  });
  afterAll(async () => {
    await t.close();
  });

  const later = (seconds: number) => {
    now = new Date(now.getTime() + seconds * 1000);
    return now.toISOString();
  };

  async function renderAll(agent: TestAgent, name: string, models: string[]) {
    const project = (await agent.post('/api/create-project', { project_name: name })).json<ProjectDocument>();
    for (const model of models) await uploadToProject(agent, project.id, model, boxStl());
    const renders = (
      await agent.post('/api/generateAssets', { project_id: project.id, category_id: 'mechanical' })
    ).json<RenderJobList>().data;
    const idOf = (model: string) => renders.find((r) => r.attributes.input_name === model)!.id;
    return { project, idOf };
  }

  const setRender = (id: string, changes: { status: 'done' | 'rendering'; started_at: string }) =>
    t.deps.database.db
      .updateTable('project_renders')
      .set({ ...changes, updated_at: now.toISOString() })
      .where('id', '=', id)
      .execute();

  it('tells each owner where their batch stands, its place among every queued render and about how long it has left', async () => {
    const someone = await signedInAgent(t.app);
    const owner = await signedInAgent(t.app);
    // A render of the category took a minute; nothing waits yet.
    const past = await renderAll(someone.agent, 'Earlier', ['past.stl']);
    const started = later(60);
    later(60);
    await setRender(past.idOf('past.stl'), { status: 'done', started_at: started });
    expect((await owner.agent.get('/api/projects/render-queue')).json<RenderQueue>().data).toEqual([]);

    // Someone else's render waits first; then the owner renders three models, one of which took a minute and one has run for 20 s.
    later(1);
    await renderAll(someone.agent, 'Theirs', ['theirs.stl']);
    later(1);
    const mine = await renderAll(owner.agent, 'Rings', ['a.stl', 'b.stl', 'c.stl']);
    const [first, second] = ['a.stl', 'b.stl'].map(mine.idOf);
    await setRender(first!, { status: 'done', started_at: new Date(now.getTime() - 60_000).toISOString() });
    await setRender(second!, { status: 'rendering', started_at: now.toISOString() });
    later(20);

    const answer = await owner.agent.get('/api/projects/render-queue');
    expect(answer.statusCode).toBe(200);
    // Its queued render is second of the instance's queue; what waits before it and what it has left
    // is 60 s (theirs) + 40 s (the running one) + 60 s (its own).
    expect(answer.json<RenderQueue>().data).toEqual([
      {
        project_id: mine.project.id,
        project_name: 'Rings',
        total: 3,
        ended: 1,
        rendering: 1,
        queued: 1,
        position: 2,
        estimate_seconds: 160,
      },
    ]);
    // Others see only their own projects.
    expect(
      (await someone.agent.get('/api/projects/render-queue'))
        .json<RenderQueue>()
        .data.map((e) => e.project_name),
    ).toEqual(['Theirs']);
  });
});
