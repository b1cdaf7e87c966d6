import type {
  ProjectDocument,
  ProjectFileList,
  ProjectList,
  ProjectRenderList,
  RenderJobList,
} from '@atelier/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WriteFaults } from '../faults/write-faults';
import { describeEachDatabase } from '../support/each-database';
import { createUser, signedInAgent } from '../support/factories';
import { restrictAsUnpaid } from '../support/unpaid-account';
import { createTestApp, type TestApp } from '../support/test-app';
import type { TestAgent } from '../support/agent';
import { uploadToProject } from './support/chunks';
import { uploaded } from '../files/files-harness';
import { boxStl } from './support/models';

describeEachDatabase('projects API', (kind) => {
  let t: TestApp;
  const faults = new WriteFaults();

  beforeAll(async () => {
    t = await createTestApp({ database: kind, settings: { chunk_size: 512 }, plugins: [faults] });
  });
  afterAll(() => t.close());

  async function createProject(agent: TestAgent, name = 'Spring collection'): Promise<ProjectDocument> {
    const answer = await agent.post('/api/create-project', {
      project_name: name,
      description: 'Rings for spring',
    });
    expect(answer.statusCode).toBe(201);
    return answer.json<ProjectDocument>();
  }

  describe('create and browse', () => {
    it('creates a project with its folders in the owner’s files and lists it', async () => {
      const { agent, user } = await signedInAgent(t.app);
      const project = await createProject(agent);
      expect(project).toMatchObject({
        name: 'Spring collection',
        description: 'Rings for spring',
        user_id: user.id,
      });
      expect(project.data.attributes.folder_id).toEqual(expect.any(String));

      const folder = await agent.get(`/api/browse/folders/${project.data.attributes.folder_id}`);
      expect(folder.json().data.map((i: { attributes: { name: string } }) => i.attributes.name)).toEqual([
        'Output',
      ]);

      const list = await agent.get('/api/browse/projects/all?sort=name&direction=asc');
      expect(list.statusCode).toBe(200);
      const body = list.json<ProjectList>();
      expect(body.data.map((p) => p.id)).toEqual([project.id]);
      expect(body.meta).toMatchObject({ root: null, paginate: { current_page: 1, total: 1, last_page: 1 } });
    });

    it('makes the project and its folders together or not at all', async () => {
      const { agent, user } = await signedInAgent(t.app);
      const made = async () => ({
        projects: (
          await t.deps.database.db
            .selectFrom('projects')
            .select('id')
            .where('user_id', '=', user.id)
            .execute()
        ).length,
        items: (
          await t.deps.database.db.selectFrom('items').select('id').where('user_id', '=', user.id).execute()
        ).length,
      });
      const body = { project_name: 'Half made' };
      const counted = await faults.run(0, 'throw', () => agent.post('/api/create-project', body));
      const whole = await made();
      expect(whole.projects).toBe(1);
      for (let after = 1; after <= counted.writes; after++) {
        const before = await made();
        let status = 0;
        await faults.run(after, 'throw', async () => {
          status = (await agent.post('/api/create-project', body)).statusCode;
        });
        expect(status, `after write ${after}`).toBe(500);
        expect(await made(), `after write ${after}`).toEqual(before);
      }
    });

    it('refuses a blank name with a field error and stores nothing', async () => {
      const { agent } = await signedInAgent(t.app);
      const answer = await agent.post('/api/create-project', { project_name: '   ', description: '' });
      expect(answer.statusCode).toBe(422);
      expect(answer.json().errors).toHaveProperty('project_name');
      expect((await agent.get('/api/browse/projects/all')).json<ProjectList>().data).toEqual([]);
    });

    it('pages, sorts and filters projects by category and render status', async () => {
      const { agent } = await signedInAgent(t.app);
      const names = ['Charlie', 'alpha', 'Bravo'];
      const made = [];
      for (const name of names) made.push(await createProject(agent, name));
      const page = (
        await agent.get('/api/browse/projects/all?sort=name&direction=asc&per_page=2&page=2')
      ).json<ProjectList>();
      expect(page.data.map((p) => p.attributes.name)).toEqual(['Charlie']);
      expect(page.meta.paginate).toMatchObject({ current_page: 2, per_page: 2, total: 3, last_page: 2 });

      await agent.post('/api/update-project-settings', {
        project_id: made[1]!.id,
        updateKey: 'category_id',
        updateValue: 'ring',
      });
      const rings = (await agent.get('/api/browse/projects/all?type=ring')).json<ProjectList>();
      expect(rings.data.map((p) => p.attributes.name)).toEqual(['alpha']);
      expect((await agent.get('/api/browse/projects/all?status=rendering')).json<ProjectList>().data).toEqual(
        [],
      );
    });

    it('answers 404 for another user’s project on every call that names it', async () => {
      const { agent: owner } = await signedInAgent(t.app);
      const project = await createProject(owner);
      const { agent: other } = await signedInAgent(t.app);
      expect((await other.get(`/api/browse/projects/${project.id}`)).statusCode).toBe(404);
      expect((await other.get(`/api/browse/projects/files/${project.id}?type=input`)).statusCode).toBe(404);
      expect((await other.get(`/api/browse/projects/gallery/${project.id}`)).statusCode).toBe(404);
      expect((await other.get(`/api/projects/${project.id}/scene`)).statusCode).toBe(404);
      expect((await other.get(`/api/outputZip?project_id=${project.id}`)).statusCode).toBe(404);
      const settings = await other.post('/api/update-project-settings', {
        project_id: project.id,
        updateKey: 'stills',
        updateValue: 2,
      });
      expect(settings.statusCode).toBe(404);
      const generate = await other.post('/api/generateAssets', {
        project_id: project.id,
        category_id: 'ring',
      });
      expect(generate.statusCode).toBe(404);
      const upload = await uploadToProject(other, project.id, 'box.stl', boxStl(), 512);
      expect(upload.at(-1)!.statusCode).toBe(404);
      expect((await other.get('/api/browse/projects/all')).json<ProjectList>().data).toEqual([]);
      // The owner's project is untouched by the refused calls.
      expect(
        (await owner.get(`/api/browse/projects/files/${project.id}?type=input`)).json<ProjectFileList>().data,
      ).toEqual([]);
    });

    it('lets user_id name only the signed-in user, except for an admin', async () => {
      const { agent, user } = await signedInAgent(t.app);
      const { user: other } = await createUser(t.deps);
      const refused = await agent.post('/api/create-project', { project_name: 'Theirs', user_id: other.id });
      expect(refused.statusCode).toBe(403);
      expect(
        (await agent.post('/api/create-project', { project_name: 'Mine', user_id: user.id })).statusCode,
      ).toBe(201);

      const { agent: admin } = await signedInAgent(t.app, (await createUser(t.deps, { role: 'admin' })).user);
      const forOther = await admin.post('/api/create-project', {
        project_name: 'For them',
        user_id: other.id,
      });
      expect(forOther.statusCode).toBe(201);
      expect(forOther.json<ProjectDocument>().user_id).toBe(other.id);
      const { agent: otherAgent } = await signedInAgent(t.app, other);
      expect(
        (await otherAgent.get('/api/browse/projects/all'))
          .json<ProjectList>()
          .data.map((p) => p.attributes.name),
      ).toEqual(['For them']);
    });
  });

  describe('settings', () => {
    it('lists the render engine’s categories', async () => {
      const { agent } = await signedInAgent(t.app);
      const answer = await agent.get('/api/projects/categories');
      expect(answer.statusCode).toBe(200);
      const ids = answer.json().data.map((c: { id: string }) => c.id);
      expect(ids).toEqual(
        expect.arrayContaining(['ring', 'pendant', 'earrings', 'bracelet', 'product', 'mechanical']),
      );
    });

    it('updates one Scene field at a time and refuses values the engine would refuse, changing nothing', async () => {
      const { agent } = await signedInAgent(t.app);
      const project = await createProject(agent);
      const update = (updateKey: string, updateValue: unknown) =>
        agent.post('/api/update-project-settings', { project_id: project.id, updateKey, updateValue });

      const ok = await update('background', { kind: 'color', color: '#102030' });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().data).toEqual({
        category_id: 'product',
        background: { kind: 'color', color: '#102030' },
      });
      expect((await update('resolution', { width: 320, height: 240 })).json().data.resolution).toEqual({
        width: 320,
        height: 240,
      });

      for (const [key, value] of [
        ['resolution', { width: 4, height: 240 }],
        ['background', { kind: 'color', color: 'red' }],
        ['cameras', []],
        ['category_id', 'spaceship'],
        ['margin', 0.9],
      ] as const) {
        const refused = await update(key, value);
        expect(refused.statusCode, key).toBe(422);
        expect(refused.json().errors, key).toBeDefined();
      }
      expect((await update('nonsense', 1)).statusCode).toBe(422);

      const scene = (await agent.get(`/api/projects/${project.id}/scene?category_id=ring`)).json().data;
      expect(scene.scene.background).toEqual({ kind: 'color', color: '#102030' });
      expect(scene.scene.resolution).toEqual({ width: 320, height: 240 });
      expect(scene.category_id).toBe('ring');

      // null clears a key back to the category's preset.
      expect((await update('background', null)).json().data).toEqual({
        category_id: 'product',
        resolution: { width: 320, height: 240 },
      });
    });

    it('keeps every key of changes sent at the same moment, for a project and for the studio defaults', async () => {
      const { agent } = await signedInAgent(t.app);
      const project = await createProject(agent);
      const answers = await Promise.all([
        agent.post('/api/update-project-settings', {
          project_id: project.id,
          updateKey: 'background',
          updateValue: { kind: 'color', color: '#102030' },
        }),
        agent.post('/api/update-project-settings', {
          project_id: project.id,
          updateKey: 'stills',
          updateValue: 2,
        }),
        agent.post('/api/studio-settings', { updateKey: 'stills', updateValue: 3 }),
        agent.post('/api/studio-settings', {
          updateKey: 'resolution',
          updateValue: { width: 800, height: 600 },
        }),
      ]);
      expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200]);
      const scene = (await agent.get(`/api/projects/${project.id}/scene`)).json().data;
      expect([scene.scene.background, scene.stills]).toEqual([{ kind: 'color', color: '#102030' }, 2]);
      expect((await agent.get('/api/studio-settings')).json().data).toEqual({
        stills: 3,
        resolution: { width: 800, height: 600 },
      });
    });

    it('keeps studio defaults per user and lays the project’s settings over them', async () => {
      const { agent } = await signedInAgent(t.app);
      const project = await createProject(agent);
      const saved = await agent.post('/api/studio-settings', { updateKey: 'stills', updateValue: 2 });
      expect(saved.statusCode).toBe(200);
      await agent.post('/api/studio-settings', {
        updateKey: 'resolution',
        updateValue: { width: 800, height: 600 },
      });
      expect((await agent.get('/api/studio-settings')).json().data).toEqual({
        stills: 2,
        resolution: { width: 800, height: 600 },
      });

      await agent.post('/api/update-project-settings', {
        project_id: project.id,
        updateKey: 'resolution',
        updateValue: { width: 64, height: 64 },
      });
      const scene = (await agent.get(`/api/projects/${project.id}/scene`)).json().data;
      expect(scene.stills).toBe(2);
      expect(scene.scene.resolution).toEqual({ width: 64, height: 64 });

      const defaultsScene = (await agent.get('/api/studio-settings/scene')).json().data;
      expect([defaultsScene.stills, defaultsScene.scene.resolution]).toEqual([
        2,
        { width: 800, height: 600 },
      ]);

      const { agent: other } = await signedInAgent(t.app);
      expect((await other.get('/api/studio-settings')).json().data).toEqual({});
    });
  });

  describe('project upload', () => {
    it('stores a model sent in chunks in the project folder and lists it as an input', async () => {
      const { agent } = await signedInAgent(t.app);
      const project = await createProject(agent);
      const bytes = boxStl();
      expect(bytes.length).toBeGreaterThan(1024);
      const answers = await uploadToProject(agent, project.id, 'box.stl', bytes, 512);
      expect(answers.map((a) => a.statusCode)).toEqual([204, 204, 201]);
      const file = answers.at(-1)!.json().data;
      expect(file.attributes).toMatchObject({
        name: 'box.stl',
        parent_id: project.data.attributes.folder_id,
        filesize: bytes.length,
      });

      const inputs = (
        await agent.get(`/api/browse/projects/files/${project.id}?type=input`)
      ).json<ProjectFileList>();
      expect(inputs.data.map((f) => [f.id, f.meta.kind, f.meta.render])).toEqual([[file.id, 'input', null]]);
      expect(inputs.meta.root?.attributes.inputs).toBe(1);
      const download = await agent.get(`/file/${file.id}`);
      expect(download.rawPayload.equals(bytes)).toBe(true);
    });

    it('serves an input as the normalised mesh the viewer draws, to its owner only', async () => {
      const { agent } = await signedInAgent(t.app);
      const project = await createProject(agent);
      const file = (await uploadToProject(agent, project.id, 'box.stl', boxStl([20, 10, 6]), 512))
        .at(-1)!
        .json().data;
      const answer = await agent.get(`/api/projects/inputs/${file.id}/mesh`);
      expect(answer.statusCode).toBe(200);
      const bytes = answer.rawPayload;
      const headerLength = bytes.readUInt32LE(0);
      const header = JSON.parse(bytes.subarray(4, 4 + headerLength).toString());
      const triangles = header.parts.reduce(
        (n: number, p: { indexCount: number }) => n + p.indexCount / 3,
        0,
      );
      expect(triangles).toBe(12);
      const vertices = header.parts.reduce((n: number, p: { vertexCount: number }) => n + p.vertexCount, 0);
      const indices = triangles * 3;
      expect(bytes.length).toBe(4 + headerLength + vertices * 24 + indices * 4);
      // Millimetres become metres and the model rests on the ground: its extents are 20, 10 and 6 mm in some order.
      const { min, max } = header.bounds;
      expect(min[1]).toBeCloseTo(0, 6);
      const extents = [0, 1, 2].map((i) => Math.round((max[i] - min[i]) * 1000)).sort((a, b) => a - b);
      expect(extents).toEqual([6, 10, 20]);

      const { agent: other } = await signedInAgent(t.app);
      expect((await other.get(`/api/projects/inputs/${file.id}/mesh`)).statusCode).toBe(404);
      // The first call loads the render engine's importers, slow on a machine busy with other suites.
    }, 120_000);

    it('refuses a file the render engine cannot read with a clear 422 and keeps nothing of it', async () => {
      const { agent } = await signedInAgent(t.app);
      const project = await createProject(agent);
      const [answer] = await uploadToProject(agent, project.id, 'notes.txt', Buffer.from('not a model'));
      expect(answer!.statusCode).toBe(422);
      expect(answer!.json().message).toMatch(/STEP|STL/);
      expect(
        (await agent.get(`/api/browse/projects/files/${project.id}?type=input`)).json<ProjectFileList>().data,
      ).toEqual([]);
      const inFolder = (await agent.get(`/api/browse/folders/${project.data.attributes.folder_id}`)).json()
        .data;
      expect(inFolder.map((i: { attributes: { name: string } }) => i.attributes.name)).toEqual(['Output']);
    });

    it('refuses a chunk without a project and a folder outside the project', async () => {
      const { agent } = await signedInAgent(t.app);
      const project = await createProject(agent);
      const elsewhere = (await agent.post('/api/create-folder', { name: 'Elsewhere' })).json().data;
      expect((await uploadToProject(agent, '', 'box.stl', boxStl(), 512))[0]!.statusCode).toBe(404);
      const outside = await uploadToProject(agent, project.id, 'box.stl', boxStl(), 512, {
        parent_id: elsewhere.id,
      });
      expect(outside[0]!.statusCode).toBe(404);
      const intoOutput = await uploadToProject(agent, project.id, 'box.stl', boxStl(), 512, {
        parent_id: project.data.attributes.output_folder_id!,
      });
      expect(intoOutput[0]!.statusCode).toBe(404);
    });

    it('accepts the form in the order the description lists it, project_id after the chunk', async () => {
      const { agent } = await signedInAgent(t.app);
      const project = await createProject(agent);
      const inner = (
        await agent.post('/api/create-folder', {
          name: 'Rings',
          parent_id: project.data.attributes.folder_id,
        })
      ).json().data;
      const bytes = boxStl();
      const answers = await uploadToProject(
        agent,
        project.id,
        'box.stl',
        bytes,
        512,
        { parent_id: inner.id },
        'as-described',
      );
      expect(answers.map((a) => a.statusCode)).toEqual([204, 204, 201]);
      const file = answers.at(-1)!.json().data;
      expect(file.attributes).toMatchObject({ name: 'box.stl', parent_id: inner.id, filesize: bytes.length });
      expect((await agent.get(`/file/${file.id}`)).rawPayload.equals(bytes)).toBe(true);
    });

    it('checks a project and folder named after the chunk like those named before it, keeping nothing of a refused upload', async () => {
      const { agent: owner } = await signedInAgent(t.app);
      const project = await createProject(owner);
      const { agent, user } = await signedInAgent(t.app);
      const own = await createProject(agent);
      const elsewhere = (await agent.post('/api/create-folder', { name: 'Elsewhere' })).json().data;

      const refusals = [
        await uploadToProject(agent, project.id, 'box.stl', boxStl(), 512, {}, 'as-described'),
        await uploadToProject(
          agent,
          own.id,
          'box.stl',
          boxStl(),
          512,
          { parent_id: elsewhere.id },
          'as-described',
        ),
        await uploadToProject(agent, own.id, 'box.stl', boxStl(), 512, { name: 'notes.txt' }, 'as-described'),
      ];
      expect(refusals.map((answers) => answers.map((a) => a.statusCode))).toEqual([[404], [404], [422]]);
      const sessions = await t.deps.database.db
        .selectFrom('upload_sessions')
        .select('id')
        .where('user_id', '=', user.id)
        .execute();
      expect(sessions).toEqual([]);
      expect(
        (await agent.get(`/api/browse/projects/files/${own.id}?type=input`)).json<ProjectFileList>().data,
      ).toEqual([]);
    });
  });

  describe('render runs', () => {
    it('queues one render per input, and refuses a project without inputs or a foreign user_id', async () => {
      const { agent, user } = await signedInAgent(t.app);
      const project = await createProject(agent);
      const empty = await agent.post('/api/generateAssets', {
        project_id: project.id,
        category_id: 'ring',
        user_id: user.id,
      });
      expect(empty.statusCode).toBe(422);

      await uploadToProject(agent, project.id, 'a.stl', boxStl(), 512);
      await uploadToProject(agent, project.id, 'b.stl', boxStl([5, 5, 5]), 512);
      const { user: other } = await createUser(t.deps);
      const foreign = await agent.post('/api/generateAssets', {
        project_id: project.id,
        category_id: 'ring',
        user_id: other.id,
      });
      expect(foreign.statusCode).toBe(403);
      const badCategory = await agent.post('/api/generateAssets', {
        project_id: project.id,
        category_id: 'spaceship',
      });
      expect(badCategory.statusCode).toBe(422);

      const queued = await agent.post('/api/generateAssets', {
        project_id: project.id,
        category_id: 'ring',
        user_id: user.id,
      });
      expect(queued.statusCode).toBe(201);
      const jobs = queued.json<RenderJobList>().data;
      expect(
        jobs
          .map((j) => [j.type, j.attributes.input_name, j.attributes.status, j.attributes.category_id])
          .sort(),
      ).toEqual([
        ['job', 'a.stl', 'queued', 'ring'],
        ['job', 'b.stl', 'queued', 'ring'],
      ]);
      const renders = (
        await agent.get(`/api/browse/projects/${project.id}?status=queued`)
      ).json<ProjectRenderList>();
      expect(renders.data).toHaveLength(2);
      expect(renders.meta.root.attributes.renders.queued).toBe(2);
    });

    it('renders every model of a folder into a project made for the folder', async () => {
      const { agent } = await signedInAgent(t.app);
      const folder = (await agent.post('/api/create-folder', { name: 'Loose parts' })).json().data;
      const project = await createProject(agent, 'Holder');
      await uploadToProject(agent, project.id, 'c.stl', boxStl(), 512);
      const notProject = await agent.post('/api/file-generateAssets', {
        folder_id: folder.id,
        category_id: 'product',
      });
      expect(notProject.statusCode).toBe(422);
      // The refusal made no project for the empty folder.
      expect(
        (await agent.get('/api/browse/projects/all')).json<ProjectList>().data.map((p) => p.attributes.name),
      ).toEqual(['Holder']);

      const answer = await agent.post('/api/file-generateAssets', {
        folder_id: project.data.attributes.folder_id,
        category_id: 'product',
      });
      expect(answer.statusCode).toBe(201);
      expect(
        answer.json<RenderJobList>().data.map((j) => [j.attributes.project_id, j.attributes.input_name]),
      ).toEqual([[project.id, 'c.stl']]);
      const { agent: other } = await signedInAgent(t.app);
      expect(
        (await other.post('/api/file-generateAssets', { folder_id: folder.id, category_id: 'product' }))
          .statusCode,
      ).toBe(404);
    });

    it('takes no file of a project’s Output folder for a model of a folder above it', async () => {
      const { agent } = await signedInAgent(t.app);
      const folder = async (name: string, parent_id?: string) =>
        (await agent.post('/api/create-folder', { name, ...(parent_id ? { parent_id } : {}) })).json().data
          .id as string;
      const catalogue = await folder('Catalogue');
      const rings = await folder('Rings', catalogue);
      await uploaded(agent, boxStl(), { name: 'ring.stl', parentId: rings, chunkSize: 512 });
      const first = await agent.post('/api/file-generateAssets', {
        folder_id: rings,
        category_id: 'product',
      });
      expect(first.statusCode).toBe(201);
      const ringsProject = (await agent.get('/api/browse/projects/all'))
        .json<ProjectList>()
        .data.find((p) => p.attributes.folder_id === rings)!;
      // What a finished render leaves there: the model as a GLB.
      await uploaded(agent, boxStl(), {
        name: 'ring.glb',
        parentId: ringsProject.attributes.output_folder_id!,
        chunkSize: 512,
      });

      const answer = await agent.post('/api/file-generateAssets', {
        folder_id: catalogue,
        category_id: 'product',
      });
      expect(answer.statusCode).toBe(201);
      expect(answer.json<RenderJobList>().data.map((j) => j.attributes.input_name)).toEqual(['ring.stl']);
      const catalogueProject = (await agent.get('/api/browse/projects/all'))
        .json<ProjectList>()
        .data.find((p) => p.attributes.folder_id === catalogue)!;
      expect(catalogueProject.attributes.inputs).toBe(1);
    });

    it('makes no project and queues no render while the account may not store files (an unpaid period)', async () => {
      const { agent, user } = await signedInAgent(t.app);
      const project = await createProject(agent, 'Unpaid');
      await uploadToProject(agent, project.id, 'd.stl', boxStl(), 512);
      const undo = await restrictAsUnpaid(t, user.id);
      try {
        expect((await agent.post('/api/create-project', { project_name: 'Another' })).statusCode).toBe(403);
        const renders = await agent.post('/api/generateAssets', {
          project_id: project.id,
          category_id: 'product',
        });
        expect(renders.statusCode).toBe(401);
        const forFolder = await agent.post('/api/file-generateAssets', {
          folder_id: project.data.attributes.folder_id,
          category_id: 'product',
        });
        expect(forFolder.statusCode).toBe(401);
      } finally {
        await undo();
      }
      const projects = (await agent.get('/api/browse/projects/all')).json<ProjectList>().data;
      expect(projects.map((p) => [p.attributes.name, p.attributes.renders.queued])).toEqual([['Unpaid', 0]]);
    });
  });
});
