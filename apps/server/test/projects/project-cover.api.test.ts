import type { ProjectDocument, ProjectFileList, ProjectList, ProjectResource } from '@atelier/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAgent } from '../support/agent';
import { describeEachDatabase } from '../support/each-database';
import { signedInAgent } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';
import { uploadToProject } from './support/chunks';
import { boxStl } from './support/models';
import { renderNow } from './support/renders';

describeEachDatabase('project covers', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ database: kind, settings: { chunk_size: 4096 } });
  });
  afterAll(() => t.close());

  /** A project with one model rendered by the draft engine into two tiny stills and no video. */
  async function renderedProject(agent: TestAgent) {
    const project = (
      await agent.post('/api/create-project', { project_name: 'Brackets', description: null })
    ).json<ProjectDocument>();
    expect((await uploadToProject(agent, project.id, 'bracket.stl', boxStl())).at(-1)!.statusCode).toBe(201);
    const tiny = { resolution: { width: 24, height: 24 }, stills: 2, video: false, engine: 'draft' };
    for (const [updateKey, updateValue] of Object.entries(tiny))
      expect(
        (await agent.post('/api/update-project-settings', { project_id: project.id, updateKey, updateValue }))
          .statusCode,
      ).toBe(200);
    const before = await cardOf(agent, project.id);
    await renderNow(t, agent, { project_id: project.id, category_id: 'mechanical' });
    const stills = (
      await agent.get(`/api/browse/projects/files/${project.id}?type=output&mimetype=png`)
    ).json<ProjectFileList>().data;
    expect(stills).toHaveLength(2);
    return { project, before, stills };
  }

  async function cardOf(agent: TestAgent, projectId: string): Promise<ProjectResource> {
    const list = (await agent.get('/api/browse/projects/all')).json<ProjectList>();
    return list.data.find((project) => project.id === projectId)!;
  }

  describe('the project list', () => {
    it('shows no cover before a render, then the latest still, then the one chosen until it is cleared', async () => {
      const { agent } = await signedInAgent(t.app);
      const { project, before, stills } = await renderedProject(agent);
      expect(before.attributes.cover).toBeNull();
      // Outputs list newest first; both stills of one render share their time, so the first listed is the latest.
      const [latest, other] = stills as [(typeof stills)[0], (typeof stills)[0]];
      expect((await cardOf(agent, project.id)).attributes.cover).toEqual({
        id: latest.id,
        url: latest.attributes.thumbnail?.lg ?? latest.attributes.file_url,
        chosen: false,
      });

      const chosen = await agent.post(`/api/projects/${project.id}/cover`, { item_id: other.id });
      expect(chosen.statusCode).toBe(200);
      expect(chosen.json<{ data: ProjectResource }>().data.attributes.cover).toMatchObject({
        id: other.id,
        chosen: true,
      });
      expect((await cardOf(agent, project.id)).attributes.cover).toMatchObject({
        id: other.id,
        chosen: true,
      });
      const picture = await agent.get((await cardOf(agent, project.id)).attributes.cover!.url);
      expect(picture.statusCode).toBe(200);

      const cleared = await agent.post(`/api/projects/${project.id}/cover`, { item_id: null });
      expect(cleared.json<{ data: ProjectResource }>().data.attributes.cover).toMatchObject({
        id: latest.id,
        chosen: false,
      });
    });

    it('falls back to the latest still when the chosen one is deleted', async () => {
      const { agent } = await signedInAgent(t.app);
      const { project, stills } = await renderedProject(agent);
      const [latest, other] = stills as [(typeof stills)[0], (typeof stills)[0]];
      await agent.post(`/api/projects/${project.id}/cover`, { item_id: other.id });
      expect(
        (await agent.post('/api/remove', { items: [{ id: other.id, type: 'file', force_delete: false }] }))
          .statusCode,
      ).toBeLessThan(300);
      expect((await cardOf(agent, project.id)).attributes.cover).toMatchObject({
        id: latest.id,
        chosen: false,
      });
    });
  });

  describe('choosing a cover', () => {
    it('refuses what is not a still of this project, changing nothing', async () => {
      const { agent } = await signedInAgent(t.app);
      const { project, stills } = await renderedProject(agent);
      const second = (
        await agent.post('/api/create-project', { project_name: 'Other', description: null })
      ).json<ProjectDocument>();
      const input = (
        await agent.get(`/api/browse/projects/files/${project.id}?type=input`)
      ).json<ProjectFileList>().data[0]!;
      for (const [projectId, itemId] of [
        [second.id, stills[0]!.id],
        [project.id, input.id],
        [project.id, 'no-such-file'],
      ] as const) {
        const refused = await agent.post(`/api/projects/${projectId}/cover`, { item_id: itemId });
        expect(refused.statusCode).toBe(422);
        expect(refused.json().errors).toHaveProperty('item_id');
      }
      expect((await cardOf(agent, project.id)).attributes.cover?.chosen).toBe(false);
      expect((await cardOf(agent, second.id)).attributes.cover).toBeNull();
    });

    it("answers 404 for someone else's project", async () => {
      const { agent } = await signedInAgent(t.app);
      const { project, stills } = await renderedProject(agent);
      const { agent: stranger } = await signedInAgent(t.app);
      const answer = await stranger.post(`/api/projects/${project.id}/cover`, { item_id: stills[0]!.id });
      expect(answer.statusCode).toBe(404);
      expect((await cardOf(agent, project.id)).attributes.cover?.chosen).toBe(false);
    });
  });
});
