import type { AddedProjectInputs, GalleryDay, ProjectDocument, ProjectFileList } from '@atelier/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readZip, uploaded } from '../files/files-harness';
import type { TestAgent } from '../support/agent';
import { describeEachDatabase } from '../support/each-database';
import { signedInAgent } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';
import { boxStl } from './support/models';
import { renderNow } from './support/renders';

/** The studio files copies and outputs as every path files into a folder: never two items of one name. */
describeEachDatabase('studio names', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ database: kind });
  });
  afterAll(() => t.close());

  const createProject = async (agent: TestAgent, name: string) =>
    (await agent.post('/api/create-project', { project_name: name })).json<ProjectDocument>();
  const namesIn = async (agent: TestAgent, folderId: string) =>
    (await agent.get(`/api/browse/folders/${folderId}`))
      .json<{ data: Array<{ attributes: { name: string } }> }>()
      .data.map((item) => item.attributes.name)
      .sort();

  describe('models from My files', () => {
    it('keeps both when a model the project already holds is added again: ring.stl, then ring (1).stl', async () => {
      const { agent } = await signedInAgent(t.app);
      const model = await uploaded(agent, boxStl([6, 6, 2]), { name: 'ring.stl' });
      const project = await createProject(agent, 'Rings');
      const add = async () => {
        const answer = await agent.post(`/api/projects/${project.id}/inputs`, { items: [model.id] });
        expect(answer.statusCode).toBe(201);
        return answer.json<AddedProjectInputs>().data.map((copy) => copy.attributes.name);
      };

      expect(await add()).toEqual(['ring.stl']);
      expect(await add()).toEqual(['ring (1).stl']);
      expect(await add()).toEqual(['ring (2).stl']);
      const folderId = project.data.attributes.folder_id!;
      expect((await namesIn(agent, folderId)).filter((name) => name !== 'Output')).toEqual([
        'ring (1).stl',
        'ring (2).stl',
        'ring.stl',
      ]);
      const inputs = (
        await agent.get(`/api/browse/projects/files/${project.id}?type=input`)
      ).json<ProjectFileList>().data;
      expect(inputs).toHaveLength(3);
    });

    it('names a copy beside what the folder holds when it takes more models at once', async () => {
      const { agent } = await signedInAgent(t.app);
      const first = await uploaded(agent, boxStl([6, 6, 2]), { name: 'ring.stl' });
      const parts = (await agent.post('/api/create-folder', { name: 'Parts' })).json().data;
      const second = await uploaded(agent, boxStl([8, 8, 2]), { name: 'ring.stl', parentId: parts.id });
      const project = await createProject(agent, 'Pairs');
      const answer = await agent.post(`/api/projects/${project.id}/inputs`, { items: [first.id, second.id] });
      expect(answer.statusCode).toBe(201);
      expect(answer.json<AddedProjectInputs>().data.map((copy) => copy.attributes.name)).toEqual([
        'ring.stl',
        'ring (1).stl',
      ]);
    });
  });

  describe('re-renders', () => {
    it('keeps a second render of a model beside the first, every output under a name of its own, all listed', async () => {
      const { agent } = await signedInAgent(t.app);
      const project = await createProject(agent, 'Brackets');
      const model = await uploaded(agent, boxStl(), { name: 'bracket.stl' });
      expect((await agent.post(`/api/projects/${project.id}/inputs`, { items: [model.id] })).statusCode).toBe(
        201,
      );
      // The draft engine at a tiny size: two stills and a two-frame turntable.
      const tiny = {
        engine: 'draft',
        resolution: { width: 24, height: 24 },
        stills: 2,
        video: true,
        turntable: { seconds: 1, fps: 2 },
      };
      for (const [updateKey, updateValue] of Object.entries(tiny))
        expect(
          (
            await agent.post('/api/update-project-settings', {
              project_id: project.id,
              updateKey,
              updateValue,
            })
          ).statusCode,
        ).toBe(200);
      const render = () => renderNow(t, agent, { project_id: project.id, category_id: 'mechanical' });

      await render();
      const firstSet = await namesIn(agent, project.data.attributes.output_folder_id!);
      // Two stills and the turntable, listed as outputs; the product page's model files and spin folder.
      expect(firstSet).toHaveLength(6);
      expect(firstSet).toContain('bracket-turntable.mp4');
      expect(firstSet).toContain('bracket-spin');
      await render();

      const outputs = (await agent.get(`/api/browse/projects/files/${project.id}`)).json<ProjectFileList>()
        .data;
      const names = outputs.map((f) => f.attributes.name).sort();
      expect(names).toHaveLength(6);
      expect(new Set(names).size).toBe(6);
      // The second set is named like the first, each with ` (1)` before its extension (a folder after its name).
      const renamed = (set: string[]) =>
        set.map((name) => (/\.[^.]+$/.test(name) ? name.replace(/(\.[^.]+)$/, ' (1)$1') : `${name} (1)`));
      const listed = firstSet.filter((name) => /\.(png|mp4)$/.test(name));
      expect(names).toEqual([...listed, ...renamed(listed)].sort());
      expect(await namesIn(agent, project.data.attributes.output_folder_id!)).toEqual(
        [...firstSet, ...renamed(firstSet)].sort(),
      );

      // The gallery shows both sets, and its zip holds every output under its own name.
      const date = outputs[0]!.attributes.created_at!.slice(0, 10);
      const day = (
        await agent.get(`/api/browse/projects/gallery/${project.id}/data?date=${date}`)
      ).json<GalleryDay>().data;
      expect([day.images.length, day.videos.length]).toEqual([4, 2]);
      const zipped = [...readZip((await agent.get(day.links.zip)).rawPayload).keys()].sort();
      expect(zipped).toEqual(names);
      // Two renders, each with its product files, on a busy machine: a longer limit.
    }, 120_000);
  });
});
