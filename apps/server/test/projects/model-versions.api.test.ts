import type { RenderJobList } from '@atelier/contracts';
import {
  ProjectFileList,
  ProjectRenderList,
  VersionList,
  type ModelVersion,
  type ProjectDocument,
} from '@atelier/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { UserRow } from '../../src/db/schema';
import type { TestAgent } from '../support/agent';
import { describeEachDatabase } from '../support/each-database';
import { signedInAgent } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';
import { basic } from '../webdav/webdav-harness';
import { uploadToProject } from './support/chunks';
import { boxStl } from './support/models';

/** Three saves of one model: each a box of other proportions, so each is other bytes. */
const saves = [boxStl([20, 10, 6]), boxStl([22, 10, 6]), boxStl([22, 12, 6])];

describeEachDatabase('model versions in the studio', (kind) => {
  let t: TestApp;
  let agent: TestAgent;
  let owner: UserRow;
  let now = new Date('2026-12-04T14:02:00Z');
  /** Every step happens a minute after the one before, so saves and render sets each have their own time. */
  const later = () => {
    now = new Date(now.getTime() + 60_000);
  };

  beforeAll(async () => {
    t = await createTestApp({ database: kind, settings: { chunk_size: 4096 }, clock: () => now });
    ({ agent, user: owner } = await signedInAgent(t.app));
  });
  afterAll(() => t.close());

  async function project(name: string) {
    const created = await agent.post('/api/create-project', { project_name: name, description: null });
    const doc = created.json<ProjectDocument>();
    const tiny = { resolution: { width: 24, height: 24 }, stills: 1, video: false, engine: 'draft' };
    for (const [updateKey, updateValue] of Object.entries(tiny))
      expect(
        (await agent.post('/api/update-project-settings', { project_id: doc.id, updateKey, updateValue }))
          .statusCode,
      ).toBe(200);
    return doc.id;
  }

  async function save(projectId: string, index: number, conflict?: 'replace') {
    later();
    const answers = await uploadToProject(
      agent,
      projectId,
      'bracket.stl',
      saves[index]!,
      undefined,
      conflict ? { conflict } : {},
    );
    expect(answers.at(-1)!.statusCode).toBe(201);
  }

  async function run(renders: RenderJobList) {
    later();
    for (const render of renders.data)
      await t.deps.projectRenders.run(render.id, {
        attempt: 1,
        failures: 0,
        retries: 0,
        signal: new AbortController().signal,
      });
  }

  const input = async (projectId: string) =>
    ProjectFileList.parse((await agent.get(`/api/browse/projects/files/${projectId}?type=input`)).json())
      .data[0]!;
  /** The outputs, newest first, as their model versions. */
  const outputVersions = async (projectId: string) =>
    ProjectFileList.parse(
      (await agent.get(`/api/browse/projects/files/${projectId}?type=output`)).json(),
    ).data.map((output) => output.meta.model_version);
  const outdated = async (projectId: string) =>
    ProjectRenderList.parse((await agent.get(`/api/browse/projects/${projectId}`)).json()).meta.root
      .attributes.outdated_inputs;
  const versions = async (fileId: string) =>
    VersionList.parse((await agent.get(`/api/files/${fileId}/versions`)).json()).data;
  const rerender = (projectId: string) => agent.post(`/api/projects/${projectId}/rerender`, {});
  /** Sets a render's state as a worker's run does (it takes it up, or gives it back to the queue). */
  const renderStatus = (id: string, status: 'queued' | 'rendering') =>
    t.deps.database.db.updateTable('project_renders').set({ status }).where('id', '=', id).execute();

  it(
    'each output names the version it was rendered from; a replace and a restore make the outputs outdated until a re-render',
    { timeout: 120_000 },
    async () => {
      const projectId = await project('Brackets');
      await save(projectId, 0);
      const model = await input(projectId);
      const [first] = await versions(model.id);
      await run(
        (
          await agent.post('/api/generateAssets', { project_id: projectId, category_id: 'mechanical' })
        ).json<RenderJobList>(),
      );
      const fromFirst: ModelVersion = {
        id: first!.id,
        created_at: first!.attributes.created_at,
        current: true,
      };
      expect(await outputVersions(projectId)).toEqual([fromFirst]);
      expect((await input(projectId)).meta.model_version).toEqual(fromFirst);
      expect(await outdated(projectId)).toBe(0);
      const upToDate = await rerender(projectId);
      expect(upToDate.statusCode).toBe(422);
      expect(upToDate.body).toContain('nothing to re-render');

      // A new version: the outputs say they are of the one before, and the project offers a re-render.
      await save(projectId, 1, 'replace');
      expect((await input(projectId)).id).toBe(model.id);
      expect(await outputVersions(projectId)).toEqual([{ ...fromFirst, current: false }]);
      expect((await input(projectId)).meta.model_version).toEqual({ ...fromFirst, current: false });
      expect(await outdated(projectId)).toBe(1);

      // One click renders the outdated model again, in the category it was rendered in.
      const queued = await rerender(projectId);
      expect(queued.statusCode).toBe(201);
      const renders = queued.json<RenderJobList>();
      expect(renders.data.map((r) => [r.attributes.input_id, r.attributes.category_id])).toEqual([
        [model.id, 'mechanical'],
      ]);
      // Queued: the render will read the current bytes, so nothing is outdated while it waits, nor
      // once a worker takes it up (as the runner marks it first): no second render of the same bytes.
      expect(await outdated(projectId)).toBe(0);
      expect((await rerender(projectId)).statusCode).toBe(422);
      await renderStatus(renders.data[0]!.id, 'rendering');
      expect(await outdated(projectId)).toBe(0);
      expect((await rerender(projectId)).statusCode).toBe(422);
      await renderStatus(renders.data[0]!.id, 'queued');
      await run(renders);
      const [second] = await versions(model.id);
      const fromSecond: ModelVersion = {
        id: second!.id,
        created_at: second!.attributes.created_at,
        current: true,
      };
      expect(await outputVersions(projectId)).toEqual([fromSecond, { ...fromFirst, current: false }]);
      expect(await outdated(projectId)).toBe(0);
      const outputNames = ProjectFileList.parse(
        (await agent.get(`/api/browse/projects/files/${projectId}?type=output`)).json(),
      ).data.map((output) => output.attributes.name);
      expect(outputNames).toEqual(['bracket-isometric (1).png', 'bracket-isometric.png']);

      // A third save, then the first restored: the newest outputs (of the second) are outdated again,
      // and the first set is of the current bytes once more.
      await save(projectId, 2, 'replace');
      expect(await outdated(projectId)).toBe(1);
      later();
      expect((await agent.post(`/api/files/${model.id}/versions/${first!.id}/restore`)).statusCode).toBe(200);
      expect(await outputVersions(projectId)).toEqual([
        { ...fromSecond, current: false },
        { ...fromFirst, current: true },
      ]);
      expect(await outdated(projectId)).toBe(1);
      expect((await input(projectId)).meta.model_version).toEqual({ ...fromSecond, current: false });

      await run((await rerender(projectId)).json<RenderJobList>());
      expect(await outputVersions(projectId)).toEqual([
        fromFirst,
        { ...fromSecond, current: false },
        fromFirst,
      ]);
      expect(await outdated(projectId)).toBe(0);

      // A version let go: its outputs still say they came from it, one no longer kept.
      expect((await agent.delete(`/api/files/${model.id}/versions/${second!.id}`)).statusCode).toBe(204);
      expect((await outputVersions(projectId))[1]).toEqual({
        id: second!.id,
        created_at: null,
        current: false,
      });
    },
  );

  it('a WebDAV save outdates them too, the gallery says so; a model moved out of the project is not offered a re-render', async () => {
    const projectId = await project('Hinges');
    await save(projectId, 0);
    const model = await input(projectId);
    await run(
      (
        await agent.post('/api/generateAssets', { project_id: projectId, category_id: 'product' })
      ).json<RenderJobList>(),
    );
    later();
    const { password } = await t.deps.appPasswords.create(owner.id, { name: 'cad' });
    const put = await t.app.inject({
      method: 'PUT',
      url: '/dav/files/Hinges/bracket.stl',
      payload: saves[1]!,
      headers: { authorization: basic(owner.email, password) },
    });
    expect(put.statusCode).toBe(204);
    expect((await input(projectId)).id).toBe(model.id);
    const day = now.toISOString().slice(0, 10);
    const gallery = (await agent.get(`/api/browse/projects/gallery/${projectId}/data?date=${day}`)).json<{
      data: { images: Array<{ meta: { model_version: ModelVersion | null } }> };
    }>();
    expect(gallery.data.images.map((image) => image.meta.model_version?.current)).toEqual([false]);
    expect(await outdated(projectId)).toBe(1);

    const elsewhere = (await agent.post('/api/create-folder', { name: 'Elsewhere' })).json().data
      .id as string;
    expect(
      (await agent.post('/api/move', { to_id: elsewhere, items: [{ id: model.id, type: 'file' }] }))
        .statusCode,
    ).toBeLessThan(300);
    expect(await outdated(projectId)).toBe(0);
    expect((await rerender(projectId)).statusCode).toBe(422);
  });

  it('a project set to re-render when its model changes queues the render with the replace or the restore that changes it', async () => {
    const projectId = await project('Clamps');
    const automatic = (value: boolean) =>
      agent.post('/api/update-project-settings', {
        project_id: projectId,
        updateKey: 'rerender_on_change',
        updateValue: value,
      });
    expect((await automatic(true)).statusCode).toBe(200);
    await save(projectId, 0);
    const model = await input(projectId);
    const renders = async () =>
      ProjectRenderList.parse((await agent.get(`/api/browse/projects/${projectId}`)).json()).data;
    // A new model is rendered only when asked; the setting re-renders models that have outputs.
    expect(await renders()).toEqual([]);
    await run(
      (
        await agent.post('/api/generateAssets', { project_id: projectId, category_id: 'ring' })
      ).json<RenderJobList>(),
    );
    const [first] = await versions(model.id);

    await save(projectId, 1, 'replace');
    const queued = (await renders()).filter((r) => r.attributes.status === 'queued');
    expect(queued.map((r) => [r.attributes.input_id, r.attributes.category_id])).toEqual([
      [model.id, 'ring'],
    ]);
    expect(await outdated(projectId)).toBe(0);
    // Another save while it waits queues nothing more: the waiting render reads the newest bytes.
    await save(projectId, 2, 'replace');
    expect((await renders()).filter((r) => r.attributes.status === 'queued')).toHaveLength(1);
    // Once it has begun (and read the bytes it shows), a save queues one more.
    await renderStatus(queued[0]!.id, 'rendering');
    await save(projectId, 1, 'replace');
    const next = (await renders()).filter((r) => r.attributes.status === 'queued');
    expect(next.map((r) => r.attributes.input_id)).toEqual([model.id]);
    await run({ data: [...queued, ...next] });
    const [third] = await versions(model.id);
    expect((await outputVersions(projectId))[0]).toMatchObject({ id: third!.id, current: true });

    // A restore is a change too.
    later();
    expect((await agent.post(`/api/files/${model.id}/versions/${first!.id}/restore`)).statusCode).toBe(200);
    const again = (await renders()).filter((r) => r.attributes.status === 'queued');
    expect(again).toHaveLength(1);
    await run({ data: again });
    expect((await outputVersions(projectId))[0]).toMatchObject({ id: first!.id, current: true });
    expect(await outdated(projectId)).toBe(0);

    // Set off, a change only makes the outputs outdated; set on again, restoring the version the
    // newest outputs show asks for nothing.
    expect((await automatic(false)).statusCode).toBe(200);
    later();
    expect((await agent.post(`/api/files/${model.id}/versions/${third!.id}/restore`)).statusCode).toBe(200);
    expect(await outdated(projectId)).toBe(1);
    expect((await automatic(true)).statusCode).toBe(200);
    later();
    expect((await agent.post(`/api/files/${model.id}/versions/${first!.id}/restore`)).statusCode).toBe(200);
    expect((await renders()).filter((r) => r.attributes.status === 'queued')).toEqual([]);
    expect(await outdated(projectId)).toBe(0);
  });
});
