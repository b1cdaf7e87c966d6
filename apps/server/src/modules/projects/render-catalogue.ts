import {
  SCENE_SETTING_KEYS,
  type ProjectSettings,
  type ProjectVariant,
  type RenderCategory,
  type RenderEngineName,
  type StudioFinish,
} from '@atelier/contracts';

import type * as Render from '@atelier/render';
import type { Scene, SceneOverrides } from '@atelier/render';

type RenderModule = typeof Render;

/** What one render run uses: the engine, how many stills, whether a turntable, and the checked scene. */
export interface RunPlan {
  engine: RenderEngineName;
  stills: number;
  video: boolean;
  scene: Scene;
}

const DEFAULT_ENGINE: RenderEngineName = 'draft';

/**
 * The render engine's categories, finishes and scene rules, as the studio uses them. The engine
 * package is imported on first use, so a process loads it only when it serves the studio.
 */
export class RenderCatalogue {
  private module: Promise<RenderModule> | null = null;

  load(): Promise<RenderModule> {
    this.module ??= import('@atelier/render');
    return this.module;
  }

  async categories(): Promise<RenderCategory[]> {
    return (await this.load()).listCategories();
  }

  /** Every finish, with the categories that offer it (in the order categories list them). */
  async finishes(): Promise<StudioFinish[]> {
    const { MATERIALS, COLOURABLE_FINISHES, listCategories, findCategory } = await this.load();
    const categories = listCategories().map(({ id }) => findCategory(id)!);
    return (Object.keys(MATERIALS) as Array<keyof typeof MATERIALS>).map((id) => ({
      id,
      material: MATERIALS[id],
      colourable: COLOURABLE_FINISHES.has(id),
      categories: categories.filter((c) => c.finishes.includes(id)).map((c) => c.id),
    }));
  }

  /** The part slots of `materials` whose material is no finish of the category (empty when all fit). */
  async misfits(categoryId: string, materials: ProjectSettings['materials']): Promise<string[]> {
    const { findCategory, finishOf } = await this.load();
    const offered = findCategory(categoryId)?.finishes ?? [];
    return Object.entries(materials ?? {})
      .filter(([, material]) => finishOf(material, offered) === undefined)
      .map(([slot]) => slot);
  }

  /**
   * The run of a category with the user's studio defaults, then the project's settings, laid over it.
   * A finish the category does not offer (a default made for rings, a run in another category than
   * the project's) is left out, so the category's own preset applies instead.
   */
  async runPlan(categoryId: string, defaults: ProjectSettings, settings: ProjectSettings): Promise<RunPlan> {
    const render = await this.load();
    const scene = render.buildScene(
      categoryId,
      sceneOverrides(await this.fitting(categoryId, defaults)),
      sceneOverrides(await this.fitting(categoryId, settings)),
    );
    return {
      engine: settings.engine ?? defaults.engine ?? DEFAULT_ENGINE,
      stills: settings.stills ?? defaults.stills ?? scene.cameras.length,
      video: settings.video ?? defaults.video ?? true,
      scene,
    };
  }

  /** The settings with a colourway's finishes laid over the project's own, slot by slot. */
  async withVariant(settings: ProjectSettings, variant: ProjectVariant | null): Promise<ProjectSettings> {
    if (!variant) return settings;
    const { MATERIALS } = await this.load();
    const materials = { ...settings.materials };
    for (const [slot, { finish, color }] of Object.entries(variant.finishes)) {
      const material = MATERIALS[finish as keyof typeof MATERIALS];
      // Checked when the colourway was saved; a finish since gone leaves the slot to the project.
      if (!material) continue;
      materials[slot] = { ...material, ...(color ? { baseColor: linearFromHex(color) } : {}) };
    }
    return { ...settings, materials };
  }

  /** The settings with only the materials that are finishes of the category. */
  async fitting(categoryId: string, settings: ProjectSettings): Promise<ProjectSettings> {
    const misfits = await this.misfits(categoryId, settings.materials);
    if (misfits.length === 0) return settings;
    const materials = Object.fromEntries(
      Object.entries(settings.materials!).filter(([slot]) => !misfits.includes(slot)),
    );
    const next: ProjectSettings = { ...settings, materials };
    if (Object.keys(materials).length === 0) delete next.materials;
    return next;
  }

  /** Why the merged scene would be refused by the engine, or null when it is fine. */
  async sceneProblem(
    categoryId: string,
    defaults: ProjectSettings,
    settings: ProjectSettings,
  ): Promise<string | null> {
    const render = await this.load();
    try {
      await this.runPlan(categoryId, defaults, settings);
      return null;
    } catch (error) {
      if (error instanceof render.RenderError && error.code === 'invalid_scene') return error.message;
      throw error;
    }
  }

  /** Model file extensions the engine imports (lowercase, without the dot). */
  async modelExtensions(): Promise<string[]> {
    return (await this.load()).SUPPORTED_EXTENSIONS.map((ext) => ext.replace(/^\./, ''));
  }
}

/** A #rgb or #rrggbb sRGB colour as the linear RGB the engine's materials take. */
function linearFromHex(hex: string): [number, number, number] {
  const digits =
    hex.length === 4 ? [...hex.slice(1)].map((d) => d + d) : [1, 3, 5].map((i) => hex.slice(i, i + 2));
  return digits.map((pair) => {
    const c = parseInt(pair, 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
}

/** The settings that are Scene fields, as overrides of the category's preset. */
function sceneOverrides(settings: ProjectSettings): SceneOverrides {
  const overrides: Record<string, unknown> = {};
  for (const key of SCENE_SETTING_KEYS) if (settings[key] !== undefined) overrides[key] = settings[key];
  // The contracts' setting schemas mirror the Scene fields; buildScene checks the merged result again.
  return overrides as SceneOverrides;
}
