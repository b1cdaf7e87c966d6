import { isModelFileName } from '@atelier/contracts';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ItemReader } from '../files/files.ports';
import type { ThumbnailService } from '../files/thumbnail.service';
import type { ModelImports } from './model-imports';
import { VIEWER_TRIANGLES } from './model-mesh';
import type { RenderCatalogue } from './render-catalogue';

/** Side of the still the thumbnails are cut from (the largest thumbnail is no bigger). */
const PREVIEW_SIDE = 640;
/** A neutral look for any model: steel on a light grey sweep. */
const PREVIEW_CATEGORY = 'mechanical';

export interface ModelPreviewDeps {
  items: ItemReader;
  imports: ModelImports;
  thumbnails: ThumbnailService;
  catalogue: RenderCatalogue;
}

/**
 * The 3D preview of a model file anywhere in the owner's files: one draft still, cut into the
 * usual thumbnail sizes, so the file browser shows the part instead of a generic icon. Run by a
 * background job, safe to repeat.
 */
export class ModelPreviewService {
  constructor(private readonly deps: ModelPreviewDeps) {}

  /** True when the file has thumbnails afterwards; false when it is gone, not a model, or unreadable. */
  async generate(itemId: string): Promise<boolean> {
    const { items, imports, thumbnails, catalogue } = this.deps;
    const item = await items.findFile(itemId);
    if (!item?.storage_key || item.deleted_at !== null || !isModelFileName(item.name)) return false;
    if ((await items.thumbnailsOf([item.id])).length > 0) return true;

    const render = await catalogue.load();
    let model;
    try {
      model = await imports.import(
        { name: item.name, size: item.size, storage_key: item.storage_key },
        { simplifyAbove: VIEWER_TRIANGLES },
      );
    } catch (error) {
      // A file that does not import keeps the generic icon; its renders report why.
      if (error instanceof render.RenderError) return false;
      throw error;
    }
    const scene = render.buildScene(PREVIEW_CATEGORY, {
      resolution: { width: PREVIEW_SIDE, height: PREVIEW_SIDE },
    });
    const workDir = await mkdtemp(join(tmpdir(), 'atelier-preview-'));
    const engine = await render.createEngine('draft');
    try {
      const result = await engine.render({ model, scene, stills: 1, outDir: workDir });
      const { makeImageThumbnails } = await import('../files/thumbnail.generator');
      return await thumbnails.save(item.id, await makeImageThumbnails(await readFile(result.stills[0]!)));
    } finally {
      await engine.close();
      await rm(workDir, { recursive: true, force: true });
    }
  }
}
