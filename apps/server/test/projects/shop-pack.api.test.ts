import {
  ProjectFileList,
  shopPreset,
  type ProjectDocument,
  type ShopPack,
  type ShopPackDocument,
  type ShopPresetId,
} from '@atelier/contracts';
import { checkShopImage, RENDER_SOURCE_TYPE } from '@atelier/render';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestAgent } from '../support/agent';
import { describeEachDatabase } from '../support/each-database';
import { signedInAgent } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';
import { readZip } from '../files/files-harness';
import { anonymousAgent, createShare, unlock } from '../sharing/sharing-harness';
import { uploadToProject } from './support/chunks';
import { boxStl } from './support/models';
import { renderNow } from './support/renders';

/** Each of these makes images of 1,000 to 2,700 px with libvips: seconds, more on a loaded machine. */
const SLOW = { timeout: 120_000 };

describeEachDatabase('shop packs', (kind) => {
  let t: TestApp;
  let owner: TestAgent;
  let project: ProjectDocument;

  /** A project whose model the draft engine rendered into two small stills on a transparent background. */
  async function renderedProject(agent: TestAgent, name: string): Promise<ProjectDocument> {
    const created = (
      await agent.post('/api/create-project', { project_name: name, description: null })
    ).json<ProjectDocument>();
    expect((await uploadToProject(agent, created.id, 'bracket.stl', boxStl())).at(-1)!.statusCode).toBe(201);
    const settings = {
      resolution: { width: 96, height: 72 },
      stills: 2,
      video: false,
      engine: 'draft',
      background: { kind: 'transparent' },
    };
    for (const [updateKey, updateValue] of Object.entries(settings)) {
      const answer = await agent.post('/api/update-project-settings', {
        project_id: created.id,
        updateKey,
        updateValue,
      });
      expect(answer.statusCode, answer.body).toBe(200);
    }
    await renderNow(t, agent, { project_id: created.id, category_id: 'mechanical' });
    return created;
  }

  /** Each image of a pack's zip passes its preset's checker again, and the manifest says so. */
  async function expectPackPasses(zip: Buffer, presets: ShopPresetId[]) {
    const entries = readZip(zip);
    const manifest = JSON.parse(entries.get('manifest.json')!.toString('utf8')) as {
      passed: boolean;
      digital_source_type: string;
      images: ShopPack['images'];
      presets: { id: string }[];
    };
    expect(manifest.passed).toBe(true);
    expect(manifest.digital_source_type).toBe(RENDER_SOURCE_TYPE);
    expect(manifest.presets.map((preset) => preset.id)).toEqual(presets);
    expect(manifest.images).toHaveLength(2 * presets.length);
    expect([...entries.keys()].sort()).toEqual(
      [...manifest.images.map((image) => image.name), 'manifest.json'].sort(),
    );
    for (const image of manifest.images) {
      const preset = shopPreset(image.preset);
      const bytes = entries.get(image.name)!;
      const check = await checkShopImage(bytes, {
        width: preset.width,
        height: preset.height,
        whiteBackground: preset.white_background,
        minFill: preset.min_fill,
        maxFill: preset.max_fill,
      });
      expect(check, image.name).toEqual(image.check);
      expect(check.passed, image.name).toBe(true);
    }
    return manifest;
  }

  beforeAll(async () => {
    t = await createTestApp({ database: kind, settings: { chunk_size: 4096 } });
    ({ agent: owner } = await signedInAgent(t.app));
    project = await renderedProject(owner, 'Brackets');
  });
  afterAll(() => t.close());

  it(
    'builds the presets asked for, keeps their checks and shows them, one preset at a time or several',
    SLOW,
    async () => {
      expect(
        (await owner.get(`/api/projects/${project.id}/shop-pack`)).json<ShopPackDocument>().data,
      ).toBeNull();

      const built = await owner.post(`/api/projects/${project.id}/shop-pack`, {
        presets: ['pinterest', 'amazon-main'],
      });
      expect(built.statusCode, built.body).toBe(200);
      const pack = built.json<ShopPackDocument>().data!;
      expect(pack.presets).toEqual(['amazon-main', 'pinterest']);
      expect(pack.images).toHaveLength(4);
      for (const image of pack.images) {
        expect(image.check.passed, JSON.stringify(image.check)).toBe(true);
        expect(image.name).toMatch(new RegExp(`^${image.preset}/0[12]-.+\\.png$`));
      }
      const amazon = pack.images.find((image) => image.preset === 'amazon-main')!.check;
      expect(amazon.background).toMatchObject({ colour: '#ffffff', white_share: 1, white_required: true });
      expect(amazon.fill.ratio).toBeGreaterThanOrEqual(0.85);
      expect(amazon.size).toMatchObject({ width: 2000, height: 2000 });

      // Building Etsy alone adds it and keeps the others' checks as they were.
      const etsy = (
        await owner.post(`/api/projects/${project.id}/shop-pack`, { presets: ['etsy'] })
      ).json<ShopPackDocument>().data!;
      expect(etsy.presets).toEqual(['amazon-main', 'etsy', 'pinterest']);
      expect(etsy.images.filter((image) => image.preset !== 'etsy')).toEqual(pack.images);
      expect(
        (await owner.get(`/api/projects/${project.id}/shop-pack`)).json<ShopPackDocument>().data,
      ).toEqual(etsy);
    },
  );

  it(
    'streams the pack as a zip of images that pass their checks, marked as renders, with a manifest',
    SLOW,
    async () => {
      const zip = await owner.get(
        `/api/projects/${project.id}/shop-pack/zip?presets=amazon-main,instagram-shop`,
      );
      expect(zip.statusCode, zip.body).toBe(200);
      expect(zip.headers['content-type']).toBe('application/zip');
      expect(zip.headers['content-disposition']).toContain('Brackets-shop-pack.zip');
      const manifest = await expectPackPasses(zip.rawPayload, ['amazon-main', 'instagram-shop']);
      const first = readZip(zip.rawPayload).get(manifest.images[0]!.name)!;
      const meta = await sharp(first).metadata();
      expect(meta.xmp?.toString('utf8')).toContain(`Iptc4xmpExt:DigitalSourceType="${RENDER_SOURCE_TYPE}"`);

      expect(
        (await owner.get(`/api/projects/${project.id}/shop-pack/zip?presets=etsy,nowhere`)).statusCode,
      ).toBe(422);
    },
  );

  it('refuses a pack of a project without stills', async () => {
    const empty = (
      await owner.post('/api/create-project', { project_name: 'Empty', description: null })
    ).json<ProjectDocument>();
    const answer = await owner.post(`/api/projects/${empty.id}/shop-pack`, { presets: ['etsy'] });
    expect(answer.statusCode).toBe(422);
    expect(answer.json().errors.project_id).toBeDefined();
  });

  it('is the owner’s: anyone else is told the project does not exist', async () => {
    const { agent: stranger } = await signedInAgent(t.app);
    const anonymous = await anonymousAgent(t.app);
    for (const [agent, status] of [
      [stranger, 404],
      [anonymous, 401],
    ] as const) {
      expect((await agent.get(`/api/projects/${project.id}/shop-pack`)).statusCode).toBe(status);
      expect((await agent.get(`/api/projects/${project.id}/shop-pack/zip`)).statusCode).toBe(status);
      expect(
        (await agent.post(`/api/projects/${project.id}/shop-pack`, { presets: ['etsy'] })).statusCode,
      ).toBe(status);
    }
  });

  // Renders a second project and streams four packs: slow on a loaded machine.
  it(
    'is downloaded through a link to the project, and through no other link',
    { timeout: 120_000 },
    async () => {
      const folder = project.data.attributes.folder_id!;
      const link = await createShare(owner, { id: folder, type: 'folder', permission: 'visitor' });
      const visitor = await anonymousAgent(t.app);
      const zip = await visitor.get(`/api/sharing/shop-pack/${link.token}?presets=pinterest`);
      expect(zip.statusCode, zip.body).toBe(200);
      await expectPackPasses(zip.rawPayload, ['pinterest']);

      // A link to a folder outside any project, a protected link before its password, a revoked link.
      const elsewhere = (await owner.post('/api/create-folder', { name: 'Elsewhere' })).json().data
        .id as string;
      const other = await createShare(owner, { id: elsewhere, type: 'folder', permission: 'visitor' });
      expect((await visitor.get(`/api/sharing/shop-pack/${other.token}`)).statusCode).toBe(404);
      // A link to one file of the project, a still or its model: the file alone, no pack, no project.
      for (const type of ['output', 'input']) {
        const [file] = ProjectFileList.parse(
          (await owner.get(`/api/browse/projects/files/${project.data.id}?type=${type}`)).json(),
        ).data;
        const single = await createShare(owner, { id: file!.id, type: 'file', permission: 'visitor' });
        const answer = await visitor.get(`/api/sharing/shop-pack/${single.token}?presets=pinterest`);
        expect(answer.statusCode, `${type}: ${answer.body}`).toBe(404);
        expect(answer.body).not.toContain(project.data.attributes.name);
      }

      expect((await owner.delete('/api/share/revoke', { tokens: [link.token] })).statusCode).toBe(204);
      expect((await visitor.get(`/api/sharing/shop-pack/${link.token}`)).statusCode).toBe(410);

      const locked = await createShare(owner, {
        id: folder,
        type: 'folder',
        permission: 'visitor',
        isPassword: true,
        password: 'a long password',
      });
      expect((await visitor.get(`/api/sharing/shop-pack/${locked.token}?presets=pinterest`)).statusCode).toBe(
        401,
      );
      await unlock(visitor, locked.token, 'a long password');
      expect((await visitor.get(`/api/sharing/shop-pack/${locked.token}?presets=pinterest`)).statusCode).toBe(
        200,
      );

      // Another owner's project is not reached through one's own link.
      const { agent: someoneElse } = await signedInAgent(t.app);
      const theirs = await renderedProject(someoneElse, 'Theirs');
      const theirLink = await createShare(someoneElse, {
        id: theirs.data.attributes.folder_id!,
        type: 'folder',
        permission: 'visitor',
      });
      const through = await visitor.get(`/api/sharing/shop-pack/${theirLink.token}?presets=pinterest`);
      const names = JSON.parse(readZip(through.rawPayload).get('manifest.json')!.toString('utf8')).project;
      expect(names).toBe('Theirs');
    },
  );
});
