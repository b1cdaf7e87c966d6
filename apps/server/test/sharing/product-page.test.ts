import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
  let webDist: string;

  beforeAll(async () => {
    // A build with the product page's own entry, whose stylesheet the page with a frame moves.
    webDist = mkdtempSync(path.join(os.tmpdir(), 'atelier-web-'));
    const page = (script: string) =>
      `<!doctype html><html><head><title>Atelier</title><script type="module" crossorigin src="/assets/${script}.js"></script>` +
      `<link rel="stylesheet" crossorigin href="/assets/${script}.css"></head><body><div id="root"></div></body></html>`;
    writeFileSync(path.join(webDist, 'index.html'), page('app'));
    writeFileSync(path.join(webDist, 'product.html'), page('product'));
    t = await createTestApp({ database: kind, env: { WEB_DIST_DIR: webDist } });
  });
  afterAll(async () => {
    await t.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  /** The product page as a browser without a session opens it: its HTML and its Link header. */
  const productHtml = async (token: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/share/${token}/product`,
      headers: { accept: 'text/html' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers.link).toBe(
      `</api/sharing/${token}>; rel=preload; as=fetch; crossorigin, ` +
        `</api/sharing/product/${token}>; rel=preload; as=fetch; crossorigin`,
    );
    return res.body;
  };
  /** The bytes of the frame the page's HTML carries inline, or null. */
  const inlineFrame = (html: string) => {
    const image = /<img class="first-frame" src="data:image\/webp;base64,([^"]+)"([^>]*)>/.exec(html);
    return image ? { bytes: Buffer.from(image[1]!, 'base64'), attributes: image[2]! } : null;
  };

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

      // The open link's page carries that frame in its HTML, in the root before the stylesheet, and
      // counts no visit: the share's detail, which the page's scripts ask for, counts the one view.
      const views = async () => (await owner.get(`/api/share/${share.token}`)).json().data.attributes.views;
      const viewsBefore = await views();
      const html = await productHtml(share.token);
      const inline = inlineFrame(html);
      expect(inline?.bytes.equals(frame.rawPayload)).toBe(true);
      expect(inline?.attributes).toBe(
        ' width="32" height="32" alt="Signet" elementtiming="product-first-frame"',
      );
      expect(html.indexOf('<div id="root"><img')).toBeLessThan(html.indexOf('/assets/product.css'));
      expect(await productHtml(share.token)).toBe(html);
      expect(await views()).toBe(viewsBefore);
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

      // An output the owner moves out of the shared folder leaves the page: the link no longer covers it.
      const stillId = /^\/file\/([^/]+)\//.exec(view!.stills[0]!)![1]!;
      expect(
        (await owner.post('/api/move', { to_id: null, items: [{ id: stillId, type: 'file' }] })).statusCode,
      ).toBe(204);
      const after = (await visitor.get(`/api/sharing/product/${share.token}`)).json<ProductPageDocument>()
        .data.attributes;
      expect(JSON.stringify(after)).not.toContain(stillId);
      expect(after.views[0]!.spin).toHaveLength(4);

      // A password asks first; the page opens once it is given; a revoked link says so.
      await owner.post(`/api/share/${share.token}`, {
        _method: 'patch',
        isPassword: true,
        password: 'secret-one',
      });
      const stranger = await anonymousAgent(t.app);
      expect(inlineFrame(await productHtml(share.token))).toBeNull();
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
      expect(inlineFrame(await productHtml(share.token))).toBeNull();
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
    const html = await productHtml(share.token);
    expect(html).toContain('<div id="root"></div>');
    expect(inlineFrame(html)).toBeNull();
  });
});
