import type {
  AddedProjectInputs,
  EffectiveScene,
  ProjectDocument,
  ProjectFileList,
  ProjectList,
  StudioFinish,
} from '@atelier/contracts';
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploaded, uploadFile } from '../files/files-harness';
import type { TestAgent } from '../support/agent';
import { describeEachDatabase } from '../support/each-database';
import { createUser, signedInAgent } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';
import { boxStl } from './support/models';
import { killedWhileFiling } from '../support/killed-while-filing';

/** The studio fits any product: categories, finishes, and models taken from the person's own files. */
describeEachDatabase('studio fit API', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ database: kind });
  });
  afterAll(() => t.close());

  const createProject = async (agent: TestAgent, name = 'Kettle') =>
    (await agent.post('/api/create-project', { project_name: name })).json<ProjectDocument>();
  const sceneOf = async (agent: TestAgent, projectId: string) =>
    (await agent.get(`/api/projects/${projectId}/scene`)).json<EffectiveScene>().data;
  const finishes = async (agent: TestAgent) =>
    new Map(
      (await agent.get('/api/projects/finishes')).json<{ data: StudioFinish[] }>().data.map((f) => [f.id, f]),
    );
  const usedBytes = async (agent: TestAgent): Promise<number> =>
    (await agent.get('/api/user/storage')).json().data.used;
  const inputsOf = async (agent: TestAgent, projectId: string) =>
    (await agent.get(`/api/browse/projects/files/${projectId}?type=input`)).json<ProjectFileList>().data;

  describe('categories and finishes', () => {
    it('starts a new project as a Product, listed first, and filters the project list by it', async () => {
      const { agent } = await signedInAgent(t.app);
      const categories = (await agent.get('/api/projects/categories')).json().data;
      expect(categories[0]).toMatchObject({ id: 'product', name: 'Product' });

      const project = await createProject(agent);
      expect(project.data.attributes.settings).toEqual({ category_id: 'product' });
      expect((await sceneOf(agent, project.id)).category_id).toBe('product');
      const listed = (await agent.get('/api/browse/projects/all?type=product')).json<ProjectList>().data;
      expect(listed.map((p) => p.id)).toEqual([project.id]);

      // A person whose studio defaults say Ring starts their projects as rings.
      await agent.post('/api/studio-settings', { updateKey: 'category_id', updateValue: 'ring' });
      const ring = await createProject(agent, 'Band');
      expect(ring.data.attributes.settings.category_id).toBe('ring');
    });

    it('offers each finish for the categories it fits, and says which come in any colour', async () => {
      const { agent } = await signedInAgent(t.app);
      const byId = await finishes(agent);
      expect(byId.get('plastic-matte')).toMatchObject({
        colourable: true,
        categories: ['product', 'mechanical'],
      });
      expect(byId.get('wood')?.categories).toEqual(['product']);
      expect(byId.get('yellow-gold')).toMatchObject({
        colourable: false,
        categories: ['ring', 'pendant', 'earrings', 'bracelet'],
      });
      const forProduct = [...byId.values()].filter((f) => f.categories.includes('product')).map((f) => f.id);
      expect(forProduct).toEqual(
        expect.arrayContaining(['plastic-glossy', 'painted-metal', 'anodised-aluminium', 'rubber', 'glass']),
      );
    });

    it('refuses a finish the category does not offer with a clear 422 and keeps the settings', async () => {
      const { agent } = await signedInAgent(t.app);
      const project = await createProject(agent);
      const byId = await finishes(agent);
      const update = (updateKey: string, updateValue: unknown) =>
        agent.post('/api/update-project-settings', { project_id: project.id, updateKey, updateValue });

      const gold = await update('materials', { '*': byId.get('yellow-gold')!.material });
      expect(gold.statusCode).toBe(422);
      expect(gold.json().errors.updateValue[0]).toMatch(/Product/);
      // Brushed steel is steel by its colour: a red one is no finish.
      const painted = { ...byId.get('brushed-steel')!.material, baseColor: [0.9, 0.1, 0.1] };
      expect((await update('materials', { '*': painted })).statusCode).toBe(422);
      expect((await createdSettings(agent, project.id)).materials).toBeUndefined();

      // A colourable finish takes any colour.
      const red = { ...byId.get('plastic-matte')!.material, baseColor: [0.8, 0.02, 0.02] };
      expect((await update('materials', { '*': red })).statusCode).toBe(200);
      expect((await sceneOf(agent, project.id)).scene.materials['*']).toEqual(red);

      // Another category lets go of the finishes it does not offer: the ring's own preset applies.
      const moved = await update('category_id', 'ring');
      expect(moved.statusCode).toBe(200);
      expect(moved.json().data).toEqual({ category_id: 'ring' });
      expect((await sceneOf(agent, project.id)).scene.materials['*']).toEqual(
        byId.get('yellow-gold')!.material,
      );
    });

    it('lays a default finish only over the categories that offer it', async () => {
      const { agent } = await signedInAgent(t.app);
      const byId = await finishes(agent);
      await agent.post('/api/studio-settings', { updateKey: 'category_id', updateValue: 'ring' });
      const platinum = await agent.post('/api/studio-settings', {
        updateKey: 'materials',
        updateValue: { '*': byId.get('platinum')!.material },
      });
      expect(platinum.statusCode).toBe(200);
      const refused = await agent.post('/api/studio-settings', {
        updateKey: 'materials',
        updateValue: { '*': byId.get('rubber')!.material },
      });
      expect(refused.statusCode).toBe(422);

      const project = await createProject(agent);
      expect((await sceneOf(agent, project.id)).scene.materials['*']).toEqual(byId.get('platinum')!.material);
      await agent.post('/api/update-project-settings', {
        project_id: project.id,
        updateKey: 'category_id',
        updateValue: 'product',
      });
      // No platinum kettle: the product's own glossy plastic.
      expect((await sceneOf(agent, project.id)).scene.materials['*']).toEqual(
        byId.get('plastic-glossy')!.material,
      );
    });
  });

  describe('models from My files', () => {
    it('copies a model into the project, which keeps it when the original moves or goes, and counts its bytes', async () => {
      const { agent } = await signedInAgent(t.app);
      const parts = (await agent.post('/api/create-folder', { name: 'Parts' })).json().data;
      const bytes = boxStl([12, 8, 4]);
      const model = await uploaded(agent, bytes, { name: 'bracket.stl', parentId: parts.id });
      const project = await createProject(agent);
      const before = await usedBytes(agent);

      const added = await agent.post(`/api/projects/${project.id}/inputs`, { items: [model.id] });
      expect(added.statusCode).toBe(201);
      const [copy] = added.json<AddedProjectInputs>().data;
      expect(copy!.id).not.toBe(model.id);
      expect(copy!.attributes).toMatchObject({
        name: 'bracket.stl',
        parent_id: project.data.attributes.folder_id,
        filesize: bytes.length,
      });
      expect((await inputsOf(agent, project.id)).map((f) => f.id)).toEqual([copy!.id]);
      expect(await usedBytes(agent)).toBe(before + bytes.length);

      // The original goes to the trash for good; the project's model stays and reads the same.
      await agent.post('/api/remove', { items: [{ id: model.id, type: 'file', force_delete: true }] });
      expect((await inputsOf(agent, project.id)).map((f) => f.id)).toEqual([copy!.id]);
      expect((await agent.get(`/file/${copy!.id}`)).rawPayload.equals(bytes)).toBe(true);
    });

    it('answers 404 for another person’s file or project, 422 for a file that is no model, and copies nothing', async () => {
      const { agent } = await signedInAgent(t.app);
      const { agent: other } = await signedInAgent(t.app);
      const theirs = await uploaded(other, boxStl(), { name: 'theirs.stl' });
      const theirProject = await createProject(other);
      const notes = await uploaded(agent, Buffer.from('not a model'), { name: 'notes.txt' });
      const mine = await uploaded(agent, boxStl(), { name: 'mine.stl' });
      const project = await createProject(agent);
      const before = await usedBytes(agent);

      const foreign = await agent.post(`/api/projects/${project.id}/inputs`, { items: [mine.id, theirs.id] });
      expect(foreign.statusCode).toBe(404);
      const intoTheirs = await agent.post(`/api/projects/${theirProject.id}/inputs`, { items: [mine.id] });
      expect(intoTheirs.statusCode).toBe(404);
      const text = await agent.post(`/api/projects/${project.id}/inputs`, { items: [notes.id] });
      expect(text.statusCode).toBe(422);
      expect(text.json().errors).toHaveProperty('items');
      expect((await agent.post(`/api/projects/${project.id}/inputs`, { items: [] })).statusCode).toBe(422);
      expect((await agent.post('/api/projects/from-file', { file_id: theirs.id })).statusCode).toBe(404);

      expect(await inputsOf(agent, project.id)).toEqual([]);
      expect(await inputsOf(other, theirProject.id)).toEqual([]);
      expect(await usedBytes(agent)).toBe(before);
      expect((await agent.get('/api/browse/projects/all')).json<ProjectList>().data).toHaveLength(1);
    });

    it('refuses copies past the storage quota with 423, keeping nothing of them', async () => {
      const bytes = boxStl();
      const { user } = await createUser(t.deps, { storageCapacity: Math.floor(bytes.length * 1.5) });
      const { agent } = await signedInAgent(t.app, user);
      const model = await uploaded(agent, bytes, { name: 'only-room-for-one.stl' });
      const project = await createProject(agent);

      const refused = await agent.post(`/api/projects/${project.id}/inputs`, { items: [model.id] });
      expect(refused.statusCode).toBe(423);
      expect(refused.json().code).toBe('storage_limit_exceeded');
      const opened = await agent.post('/api/projects/from-file', { file_id: model.id });
      expect(opened.statusCode).toBe(423);
      expect(await inputsOf(agent, project.id)).toEqual([]);
      expect((await agent.get('/api/browse/projects/all')).json<ProjectList>().data).toHaveLength(1);
      expect(await usedBytes(agent)).toBe(bytes.length);
      // Nothing is held either: the room left still takes an upload that fits it.
      const fits = await uploadFile(agent, randomBytes(Math.floor(bytes.length * 0.4)), {
        name: 'small.bin',
      });
      expect(fits.at(-1)!.statusCode).toBe(201);
    });

    it('leaves no copied bytes behind when its process is killed after storing them, before filing them', async () => {
      const { agent, user } = await signedInAgent(t.app);
      const model = await uploaded(agent, boxStl([14, 9, 5]), { name: 'killed.stl' });
      const project = await createProject(agent, 'Killed');
      // The copy's own writes, not those of the background jobs of the model running meanwhile.
      const ofCopy = new AsyncLocalStorage<true>();
      // The process dies as the copies are being filed.
      const killed = await killedWhileFiling(t, { counts: () => !!ofCopy.getStore(), failFiling: true });
      try {
        await expect(
          ofCopy.run(true, () => t.deps.projects.addInputs(user.id, project.id, [model.id])),
        ).rejects.toThrow('killed');
      } finally {
        killed.restore();
      }
      expect(killed.written.length).toBeGreaterThan(0);
      expect(await killed.leftAfterSweep()).toEqual([]);
    });

    it('opens a model as a new Product project named after it, holding a copy', async () => {
      const { agent } = await signedInAgent(t.app);
      const bytes = boxStl([30, 20, 10]);
      const model = await uploaded(agent, bytes, { name: 'desk-lamp.step.stl' });
      const answer = await agent.post('/api/projects/from-file', { file_id: model.id });
      expect(answer.statusCode).toBe(201);
      const project = answer.json<ProjectDocument>();
      expect(project.name).toBe('desk-lamp.step');
      expect(project.data.attributes.settings.category_id).toBe('product');
      const inputs = await inputsOf(agent, project.id);
      expect(inputs.map((f) => [f.attributes.name, f.attributes.filesize])).toEqual([
        ['desk-lamp.step.stl', bytes.length],
      ]);
      expect(inputs[0]!.id).not.toBe(model.id);
      const folder = (await agent.get(`/api/browse/folders/${project.data.attributes.folder_id}`)).json()
        .data;
      expect(folder.map((i: { attributes: { name: string } }) => i.attributes.name).sort()).toEqual([
        'Output',
        'desk-lamp.step.stl',
      ]);
    });
  });
});

async function createdSettings(agent: TestAgent, projectId: string) {
  return (await agent.get(`/api/browse/projects/${projectId}`)).json().meta.root.attributes.settings;
}
