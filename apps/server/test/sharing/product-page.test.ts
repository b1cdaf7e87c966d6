import type { OEmbedDocument, ProductPageDocument, ProjectDocument } from '@atelier/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { uploaded } from '../files/files-harness';
import { boxStl } from '../projects/support/models';
import { describeEachDatabase } from '../support/each-database';
import { signedInAgent } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';
import { anonymousAgent, createShare, unlock } from './sharing-harness';
import { renderNow } from '../projects/support/renders';

describeEachDatabase('product pages', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ database: kind });
  });
  afterAll(() => t.close());

  it(
    'shows a shared project as its product page: each colourway with stills, spin frames, GLB and USDZ, through the link alone',
    { timeout: 180_000 },
    async () => {
      const { agent: owner } = await signedInAgent(t.app);
      const project = (
        await owner.post('/api/create-project', { project_name: 'Signet' })
      ).json<ProjectDocument>().data;
      const model = await uploaded(owner, boxStl([12, 12, 3]), { name: 'signet.stl' });
      expect((await owner.post(`/api/projects/${project.id}/inputs`, { items: [model.id] })).statusCode).toBe(
        201,
      );
      const settings = {
        category_id: 'ring',
        engine: 'draft',
        resolution: { width: 32, height: 32 },
        stills: 1,
        video: true,
        turntable: { seconds: 1, fps: 4 },
        variants: [{ id: 'rose-gold', name: 'Rose gold', finishes: { '*': { finish: 'rose-gold' } } }],
      };
      for (const [updateKey, updateValue] of Object.entries(settings))
        expect(
          (
            await owner.post('/api/update-project-settings', {
              project_id: project.id,
              updateKey,
              updateValue,
            })
          ).statusCode,
        ).toBe(200);
      await renderNow(t, owner, { project_id: project.id, category_id: 'ring', variants: ['rose-gold'] });

      const share = await createShare(owner, {
        id: project.attributes.folder_id,
        type: 'folder',
        permission: 'visitor',
      });
      // The owner's link is also the product page, with the codes that embed it in a shop page.
      expect(share.product).toEqual({
        link: `http://atelier.test/share/${share.token}/product`,
        iframe: expect.stringContaining(`src="http://atelier.test/share/${share.token}/product?embed=1"`),
        script: `<script async src="http://atelier.test/embed.js" data-product="${share.token}" data-title="Signet"></script>`,
      });
      expect((await owner.get(`/api/share/${share.token}`)).json().data.attributes.product).toEqual(
        share.product,
      );
      const visitor = await anonymousAgent(t.app);
      const answer = await visitor.get(`/api/sharing/product/${share.token}`);
      expect(answer.statusCode, answer.body).toBe(200);
      const page = answer.json<ProductPageDocument>().data.attributes;
      expect(page.title).toBe('Signet');
      expect(page.views.map((view) => view.variant?.id ?? null)).toEqual(['rose-gold']);
      const [view] = page.views;
      expect(view!.stills).toHaveLength(1);
      expect(view!.spin).toHaveLength(4);
      for (const url of [...view!.stills, ...view!.spin, view!.glb!, view!.usdz!])
        expect(url).toMatch(new RegExp(`^/file/[^/]+/shared/${share.token}$`));
      const frame = await visitor.get(view!.spin[0]!);
      expect(frame.statusCode).toBe(200);
      expect((await sharp(frame.rawPayload).metadata()).format).toBe('webp');
      const glb = await visitor.get(view!.glb!);
      expect(glb.rawPayload.subarray(0, 4).toString('latin1')).toBe('glTF');
      // The GLB carries the colourway for a viewer's switcher.
      expect(glb.rawPayload.toString('latin1')).toContain('KHR_materials_variants');

      // A pasted link previews: oEmbed answers the embedded page in an iframe.
      const oembed = await visitor.get(
        `/api/oembed?url=${encodeURIComponent(`http://atelier.test/share/${share.token}/product`)}&maxwidth=400`,
      );
      expect(oembed.statusCode, oembed.body).toBe(200);
      const embed = oembed.json<OEmbedDocument>();
      expect(embed).toMatchObject({ version: '1.0', type: 'rich', title: 'Signet', width: 400 });
      expect(embed.html).toContain(`src="http://atelier.test/share/${share.token}/product?embed=1"`);
      expect(
        (
          await visitor.get(
            `/api/oembed?url=${encodeURIComponent(`http://elsewhere.test/share/${share.token}/product`)}`,
          )
        ).statusCode,
      ).toBe(404);

      // A password asks first; the page opens once it is given; a revoked link says so.
      await owner.post(`/api/share/${share.token}`, {
        _method: 'patch',
        isPassword: true,
        password: 'secret-one',
      });
      const stranger = await anonymousAgent(t.app);
      expect((await stranger.get(`/api/sharing/product/${share.token}`)).statusCode).toBe(401);
      expect((await stranger.get(view!.spin[0]!)).statusCode).toBe(401);
      expect(
        (
          await stranger.get(
            `/api/oembed?url=${encodeURIComponent(`http://atelier.test/share/${share.token}/product`)}`,
          )
        ).statusCode,
      ).toBe(404);
      await unlock(stranger, share.token, 'secret-one');
      expect((await stranger.get(`/api/sharing/product/${share.token}`)).statusCode).toBe(200);
      await owner.post('/api/share/revoke', { tokens: [share.token], _method: 'delete' });
      const revoked = await stranger.get(`/api/sharing/product/${share.token}`);
      expect(revoked.statusCode).toBe(410);
      expect(revoked.json()).toMatchObject({ code: 'share_revoked' });
    },
  );

  it('has no product page, nor embed codes, for a share of a folder that is no project', async () => {
    const { agent: owner } = await signedInAgent(t.app);
    const folder = (await owner.post('/api/create-folder', { name: 'Plain' })).json().data;
    const share = await createShare(owner, { id: folder.id, type: 'folder', permission: 'visitor' });
    expect(share.product).toBeNull();
    expect((await owner.get(`/api/share/${share.token}`)).json().data.attributes.product).toBeNull();
    const visitor = await anonymousAgent(t.app);
    expect((await visitor.get(`/api/sharing/product/${share.token}`)).statusCode).toBe(404);
  });
});
