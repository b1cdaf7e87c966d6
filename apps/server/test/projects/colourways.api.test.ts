import type {
  ProjectDocument,
  ProjectFileList,
  ProjectRenderList,
  ProjectSettings,
} from '@atelier/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { uploaded } from '../files/files-harness';
import type { TestAgent } from '../support/agent';
import { describeEachDatabase } from '../support/each-database';
import { signedInAgent } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';
import { boxStl } from './support/models';
import { renderNow } from './support/renders';

const ROSE = { id: 'rose-gold', name: 'Rose gold', finishes: { '*': { finish: 'rose-gold' } } };
const WHITE = { id: 'white-gold', name: 'White gold', finishes: { '*': { finish: 'white-gold' } } };

/** Colourways: a project's variants, each rendered as a set of its own named by it. */
describeEachDatabase('colourways', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ database: kind });
  });
  afterAll(() => t.close());

  const set = (agent: TestAgent, projectId: string, updateKey: string, updateValue: unknown) =>
    agent.post('/api/update-project-settings', { project_id: projectId, updateKey, updateValue });

  /** A ring project with one model, set to render two tiny draft stills and no video. */
  async function ringProject(agent: TestAgent): Promise<ProjectDocument> {
    const project = (
      await agent.post('/api/create-project', { project_name: 'Rings' })
    ).json<ProjectDocument>();
    const model = await uploaded(agent, boxStl([6, 6, 2]), { name: 'ring.stl' });
    expect((await agent.post(`/api/projects/${project.id}/inputs`, { items: [model.id] })).statusCode).toBe(
      201,
    );
    const tiny = {
      category_id: 'ring',
      engine: 'draft',
      resolution: { width: 24, height: 24 },
      stills: 2,
      video: false,
    };
    for (const [key, value] of Object.entries(tiny))
      expect((await set(agent, project.id, key, value)).statusCode).toBe(200);
    return project;
  }

  const generate = (agent: TestAgent, projectId: string, variants?: string[]) =>
    renderNow(t, agent, { project_id: projectId, category_id: 'ring', variants });

  it('keeps the variants in the settings and renders each as a set named by it', async () => {
    const { agent } = await signedInAgent(t.app);
    const project = await ringProject(agent);
    const saved = await set(agent, project.id, 'variants', [ROSE, WHITE]);
    expect(saved.statusCode).toBe(200);
    expect(saved.json<{ data: ProjectSettings }>().data.variants).toEqual([ROSE, WHITE]);

    const jobs = await generate(agent, project.id);
    expect(jobs.map((job) => job.attributes.variant)).toEqual([
      { id: 'rose-gold', name: 'Rose gold' },
      { id: 'white-gold', name: 'White gold' },
    ]);
    const outputs = (await agent.get(`/api/browse/projects/files/${project.id}`)).json<ProjectFileList>()
      .data;
    expect(outputs.map((output) => output.attributes.name).sort()).toEqual([
      'ring-front-rose-gold.png',
      'ring-front-white-gold.png',
      'ring-three-quarter-front-rose-gold.png',
      'ring-three-quarter-front-white-gold.png',
    ]);
    // Each output says which colourway it shows, so the studio can group them.
    for (const output of outputs)
      expect(output.attributes.name).toContain(output.meta.render!.attributes.variant!.id);
  });

  it('renders only the variants asked for, and the project’s own finishes when none is', async () => {
    const { agent } = await signedInAgent(t.app);
    const project = await ringProject(agent);
    expect((await set(agent, project.id, 'variants', [ROSE, WHITE])).statusCode).toBe(200);

    expect(
      (await generate(agent, project.id, ['white-gold'])).map((job) => job.attributes.variant?.id),
    ).toEqual(['white-gold']);
    expect((await generate(agent, project.id, [])).map((job) => job.attributes.variant)).toEqual([null]);
    const names = (await agent.get(`/api/browse/projects/files/${project.id}`))
      .json<ProjectFileList>()
      .data.map((output) => output.attributes.name)
      .sort();
    expect(names).toEqual([
      'ring-front-white-gold.png',
      'ring-front.png',
      'ring-three-quarter-front-white-gold.png',
      'ring-three-quarter-front.png',
    ]);
  });

  it('refuses a variant it does not have, a finish the category does not offer and a repeated id, changing nothing', async () => {
    const { agent } = await signedInAgent(t.app);
    const project = await ringProject(agent);
    expect((await set(agent, project.id, 'variants', [ROSE])).statusCode).toBe(200);

    const unknown = await agent.post('/api/generateAssets', {
      project_id: project.id,
      category_id: 'ring',
      variants: ['platinum'],
    });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors.variants).toEqual(['The project has no such colourway.']);

    const plastic = {
      id: 'blue',
      name: 'Blue',
      finishes: { '*': { finish: 'plastic-glossy', color: '#1040c0' } },
    };
    expect((await set(agent, project.id, 'variants', [plastic])).statusCode).toBe(422);
    const coloured = { ...ROSE, finishes: { '*': { finish: 'rose-gold', color: '#ff0000' } } };
    expect((await set(agent, project.id, 'variants', [coloured])).statusCode).toBe(422);
    expect((await set(agent, project.id, 'variants', [ROSE, { ...WHITE, id: 'rose-gold' }])).statusCode).toBe(
      422,
    );
    expect((await set(agent, project.id, 'variants', [{ ...ROSE, id: 'Rose Gold' }])).statusCode).toBe(422);

    const after = (await agent.get(`/api/browse/projects/${project.id}`)).json<ProjectRenderList>();
    expect(after.meta.root.attributes.settings.variants).toEqual([ROSE]);
    expect(after.data).toEqual([]);
  });

  it('lets a product take a plastic colourway in a colour of its own', async () => {
    const { agent } = await signedInAgent(t.app);
    const project = await ringProject(agent);
    expect((await set(agent, project.id, 'category_id', 'product')).statusCode).toBe(200);
    const blue = {
      id: 'blue',
      name: 'Blue',
      finishes: { '*': { finish: 'plastic-glossy', color: '#1040c0' } },
    };
    const saved = await set(agent, project.id, 'variants', [blue]);
    expect(saved.statusCode).toBe(200);
    expect(saved.json<{ data: ProjectSettings }>().data.variants).toEqual([blue]);
  });
});
