import {
  SHOP_PRESETS,
  shopPreset,
  type ShopPack,
  type ShopPackImage,
  type ShopPreset,
  type ShopPresetId,
} from '@atelier/contracts';
import { buildShopImage, checkShopImage, RENDER_SOURCE_TYPE, type ShopImageSpec } from '@atelier/render';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { AppError } from '../../lib/app-error';
import { zipStream, type ZipEntry } from '../../lib/zip-stream';
import type { ContentReader } from '../files/block-store';
import type { DownloadService } from '../files/download.service';
import { notFound, ownerActor, type Actor } from '../files/files.access';
import type { ItemReader } from '../files/files.ports';
import type { ItemRow, ItemType } from '../files/files.tables';
import type { ProjectsRepository } from './projects.repository';
import { safeZipStem, type ProjectsService } from './projects.service';
import type { ProjectRow } from './projects.tables';
import type { ShopPackRepository } from './shop-pack.repository';

/** The newest stills a pack is made of: a listing shows a handful of pictures, not a whole gallery. */
export const SHOP_PACK_STILLS = 6;

export interface ShopPackServiceDeps {
  projects: Pick<ProjectsRepository, 'projectOfFolders' | 'listOutputs'>;
  /** The owner's project by id, 404 for anything else (the studio's own lookup). */
  studio: Pick<ProjectsService, 'project'>;
  packs: ShopPackRepository;
  items: Pick<ItemReader, 'ancestorIds'>;
  contents: ContentReader;
  downloads: Pick<DownloadService, 'assertCanDownload'>;
  now: () => Date;
}

interface Source {
  row: ItemRow;
  bytes: Buffer;
  /** Its place among the pack's stills, from 1, which starts its images' names. */
  position: number;
}

interface Built {
  image: Buffer;
  entry: ShopPackImage;
}

function specOf(preset: ShopPreset): ShopImageSpec {
  return {
    width: preset.width,
    height: preset.height,
    whiteBackground: preset.white_background,
    minFill: preset.min_fill,
    maxFill: preset.max_fill,
  };
}

function stemOf(name: string): string {
  return safeZipStem(name.replace(/\.[^.]{1,10}$/, ''));
}

/** One preset's image of one still, and what its checker found. */
async function packImage(project: ProjectRow, source: Source, id: ShopPresetId): Promise<Built> {
  const preset = shopPreset(id);
  const spec = specOf(preset);
  const image = await buildShopImage(source.bytes, spec, `Rendered from a 3D model: ${project.name}`);
  return {
    image,
    entry: {
      preset: id,
      name: `${id}/${String(source.position).padStart(2, '0')}-${stemOf(source.row.name)}.png`,
      source_id: source.row.id,
      source_name: source.row.name,
      bytes: image.length,
      check: await checkShopImage(image, spec),
    },
  };
}

/** A pack's zip entries, each image made when the zip reaches it, then the manifest of their checks. */
async function* packEntries(
  project: ProjectRow,
  sources: Source[],
  presets: readonly ShopPresetId[],
  builtAt: Date,
): AsyncGenerator<ZipEntry> {
  const images: ShopPackImage[] = [];
  const file = (name: string, bytes: Buffer, compress: boolean): ZipEntry => ({
    kind: 'file',
    name,
    modifiedAt: builtAt,
    size: bytes.length,
    compress,
    open: async () => Readable.from([bytes]),
  });
  for (const source of sources)
    for (const id of presets) {
      const { image, entry } = await packImage(project, source, id);
      images.push(entry);
      yield file(entry.name, image, false);
    }
  const manifest = {
    project: project.name,
    built_at: builtAt.toISOString(),
    digital_source_type: RENDER_SOURCE_TYPE,
    passed: images.every((image) => image.check.passed),
    presets: presets.map(shopPreset),
    images,
  };
  yield file('manifest.json', Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), true);
}

/**
 * Shop packs: each preset's listing images made from a project's newest stills, each checked
 * (size, border colour, fill ratio, the render mark) as it is made. The owner builds a pack to see
 * its checks, which are kept; the owner and the visitors of a link to the project download it as a
 * zip, built as it streams, with a manifest of the checks at its end.
 */
export class ShopPackService {
  constructor(private readonly deps: ShopPackServiceDeps) {}

  /** The project's last built pack, null before the first. */
  async last(ownerId: string, projectId: string): Promise<ShopPack | null> {
    const project = await this.deps.studio.project(ownerId, projectId);
    const row = await this.deps.packs.find(ownerId, project.id);
    return row ? this.present(project, JSON.parse(row.images) as ShopPackImage[], row.built_at) : null;
  }

  /**
   * Builds the presets' images and keeps their checks; the images of presets not named stay as
   * they were built last, so a client may build one preset at a time and show its progress.
   */
  async build(ownerId: string, projectId: string, presets: readonly ShopPresetId[]): Promise<ShopPack> {
    const project = await this.deps.studio.project(ownerId, projectId);
    const actor = ownerActor(ownerId);
    const sources = await this.sources(actor, project);
    const built: ShopPackImage[] = [];
    for (const source of sources)
      for (const id of presets) built.push((await packImage(project, source, id)).entry);
    const kept = await this.deps.packs.find(ownerId, project.id);
    const earlier = kept ? (JSON.parse(kept.images) as ShopPackImage[]) : [];
    const order = (image: ShopPackImage) => SHOP_PRESETS.findIndex((p) => p.id === image.preset);
    const images = [...earlier.filter((image) => !presets.includes(image.preset)), ...built].sort(
      (a, b) => order(a) - order(b) || a.name.localeCompare(b.name),
    );
    const saved = await this.deps.packs.save({
      project_id: project.id,
      user_id: ownerId,
      images: JSON.stringify(images),
      built_at: this.deps.now().toISOString(),
    });
    return this.present(project, images, saved.built_at);
  }

  /** The owner's project as a zip of the presets' images. */
  async zipOf(ownerId: string, projectId: string, presets: readonly ShopPresetId[]) {
    return this.zip(ownerActor(ownerId), await this.deps.studio.project(ownerId, projectId), presets);
  }

  /**
   * The pack of the project a link shares (its folder, or a folder inside it such as its outputs); a
   * link to one of its files shares that file alone, and tells nothing of a project.
   */
  async zipThroughLink(actor: Actor, shared: ItemType, presets: readonly ShopPresetId[]) {
    if (!actor.rootId || shared !== 'folder') throw notFound();
    const project = await this.deps.projects.projectOfFolders(
      actor.ownerId,
      await this.deps.items.ancestorIds(actor.ownerId, actor.rootId),
    );
    if (!project) throw notFound();
    return this.zip(actor, project, presets);
  }

  private async zip(
    actor: Actor,
    project: ProjectRow,
    presets: readonly ShopPresetId[],
  ): Promise<{ name: string; archive: Readable }> {
    await this.deps.downloads.assertCanDownload(actor);
    const sources = await this.sources(actor, project);
    return {
      name: `${safeZipStem(project.name)}-shop-pack.zip`,
      archive: zipStream(packEntries(project, sources, presets, this.deps.now())),
    };
  }

  /** The project's newest PNG stills the actor reaches; a pack of none is refused. */
  private async sources(actor: Actor, project: ProjectRow): Promise<Source[]> {
    const outputs = await this.deps.projects.listOutputs(
      actor.ownerId,
      { projectId: project.id, kind: 'image' },
      { limit: SHOP_PACK_STILLS, offset: 0 },
    );
    const reachable: ItemRow[] = [];
    for (const row of outputs.rows) {
      if (row.mimetype !== 'image/png' || !row.storage_key) continue;
      if (actor.rootId && !(await this.deps.items.ancestorIds(actor.ownerId, row.id)).includes(actor.rootId))
        continue;
      reachable.push(row);
    }
    if (reachable.length === 0) throw AppError.invalid('project_id', 'validation.shop_pack_no_stills');
    return Promise.all(
      reachable.map(async (row, index) => ({
        row,
        bytes: await buffer(await this.deps.contents.read(row.storage_key!)),
        position: index + 1,
      })),
    );
  }

  private present(project: ProjectRow, images: ShopPackImage[], builtAt: string): ShopPack {
    return {
      project_id: project.id,
      built_at: new Date(builtAt).toISOString(),
      presets: SHOP_PRESETS.map((p) => p.id).filter((id) => images.some((image) => image.preset === id)),
      images,
    };
  }
}
