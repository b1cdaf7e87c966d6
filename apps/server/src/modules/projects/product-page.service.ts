import type { ProductView } from '@atelier/contracts';
import { ItemAccess, notFound, type Actor } from '../files/files.access';
import type { ItemReader } from '../files/files.ports';
import { storedVariant } from './projects.presenter';
import { parseSettings } from './projects.service';
import type { ProductOutput, ProjectsRepository } from './projects.repository';

/** A colourway's files of a product page, by item id; the route turns them into the share's addresses. */
export type ProductFiles = Omit<ProductView, 'stills' | 'spin' | 'glb' | 'usdz'> & {
  stills: string[];
  spin: string[];
  glb: string | null;
  usdz: string | null;
};

export interface ProductPage {
  title: string;
  description: string | null;
  views: ProductFiles[];
}

export interface ProductPagesDeps {
  projects: ProjectsRepository;
  items: ItemReader;
}

/**
 * A project's share as a product page: for the model most recently rendered with a turntable, the
 * newest set of each colourway (the project's own finishes first, then its colourways in the studio's
 * order): stills, spin frames, GLB and USDZ. Only a folder the actor reaches that is a project's
 * folder or its output folder has one; anything else is a 404.
 */
export class ProductPages {
  private readonly access: ItemAccess;

  constructor(private readonly deps: ProductPagesDeps) {
    this.access = new ItemAccess(deps.items);
  }

  async of(actor: Actor, folderId: string): Promise<ProductPage> {
    const folder = await this.access.reachOne(actor, folderId, 'live', 'folder');
    const project = await this.deps.projects.projectOfFolder(actor.ownerId, folder.id);
    if (!project) throw notFound();
    const outputs = await this.liveOutputs(actor, project.id);
    // The model shown is the one of the newest spin (outputs come newest first).
    const shown = outputs.find((output) => output.kind === 'spin')?.input_id;
    if (!shown) throw notFound();
    const newestRender = new Map<string, string>();
    for (const output of outputs)
      if (output.input_id === shown && output.kind === 'spin' && !newestRender.has(output.variant_id ?? ''))
        newestRender.set(output.variant_id ?? '', output.render_id!);
    const order = ['', ...(parseSettings(project.settings).variants ?? []).map((variant) => variant.id)];
    const views = [...newestRender.entries()]
      .sort(([a], [b]) => rank(order, a) - rank(order, b))
      .map(([, renderId]) => viewOf(outputs.filter((output) => output.render_id === renderId)));
    return { title: project.name, description: project.description, views };
  }

  /** The name of the owner's project whose folder, or output folder, this is (its link is a product page). */
  async projectNameOf(ownerId: string, folderId: string): Promise<string | null> {
    return (await this.deps.projects.projectOfFolder(ownerId, folderId))?.name ?? null;
  }

  /**
   * The project's outputs whose files are live and inside the link's folder (one moved out of it is
   * no longer the link's), newest first, each with its file's name.
   */
  private async liveOutputs(actor: Actor, projectId: string) {
    const outputs = await this.deps.projects.productOutputs(actor.ownerId, projectId);
    const files = await this.deps.items.findMany(
      actor.ownerId,
      outputs.map((output) => output.item_id),
    );
    const reached = actor.rootId
      ? await this.deps.items.liveAmongBelow(
          actor.ownerId,
          actor.rootId,
          files.map((file) => file.id),
        )
      : null;
    const live = new Map(
      files
        .filter((item) => item.deleted_at === null && (reached?.has(item.id) ?? true))
        .map((item) => [item.id, item.name]),
    );
    return outputs.flatMap((output) => {
      const name = live.get(output.item_id);
      const variant = storedVariant(output);
      return name === undefined
        ? []
        : [{ ...output, name, variant_id: variant?.id, variant_name: variant?.name }];
    });
  }
}

/** Colourways the studio no longer lists come last. */
function rank(order: string[], variantId: string): number {
  const index = order.indexOf(variantId);
  return index === -1 ? order.length : index;
}

type LiveOutput = ProductOutput & { name: string; variant_id?: string; variant_name?: string };

function viewOf(outputs: LiveOutput[]): ProductFiles {
  const byName = (a: { name: string }, b: { name: string }) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  const ids = (kind: ProductOutput['kind']) =>
    outputs
      .filter((output) => output.kind === kind)
      .sort(byName)
      .map((output) => output.item_id);
  const model = (extension: string) =>
    outputs.find((output) => output.kind === 'model' && output.name.endsWith(extension))?.item_id ?? null;
  const first = outputs[0]!;
  return {
    variant: first.variant_id ? { id: first.variant_id, name: first.variant_name! } : null,
    stills: ids('image'),
    spin: ids('spin'),
    glb: model('.glb'),
    usdz: model('.usdz'),
  };
}
