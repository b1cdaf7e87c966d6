import { RenderError, type Model, type Scene } from '../types';
import { writeGlb } from './glb';
import { planMaterials, type ExportVariant } from './materials-plan';
import { writeUsdz } from './usdz';

export type { ExportVariant } from './materials-plan';

export type ExportFormat = 'glb' | 'usdz';

export interface ExportOptions {
  format: ExportFormat;
  /** The project's scene: each part wears the material it renders with. */
  scene: Scene;
  /** Colourways: in a GLB all of them (KHR_materials_variants); a USDZ wears the one named by `variant`. */
  variants?: readonly ExportVariant[];
  /** USDZ only: the id of the colourway to wear; the project's own finishes when absent. */
  variant?: string;
  /** The GLB's node and mesh name. */
  name?: string;
  /**
   * GLB only: 'meshopt' (the default) quantises and packs every view (EXT_meshopt_compression);
   * 'none' writes plain 32-bit floats, for viewers without the meshopt decoder.
   */
  compression?: 'meshopt' | 'none';
}

/**
 * A model as a file for 3D viewers and AR at real size: a meshopt-compressed GLB with the project's
 * materials and colourways, or a USDZ for AR Quick Look. Bad options are RenderError('invalid_scene').
 */
export async function exportModel(model: Model, options: ExportOptions): Promise<Uint8Array> {
  if (model.parts.length === 0 || model.triangleCount === 0) {
    throw new RenderError('empty_model', 'the model has no triangles to export');
  }
  const variants = options.variants ?? [];
  if (new Set(variants.map((v) => v.id)).size !== variants.length) {
    throw new RenderError('invalid_scene', 'colourway ids must be unique');
  }
  if (options.format === 'glb') {
    return writeGlb(model, planMaterials(model, options.scene, variants), variants, {
      name: options.name ?? 'model',
      compressed: options.compression !== 'none',
    });
  }
  if (options.format === 'usdz') {
    const worn = options.variant === undefined ? undefined : variants.find((v) => v.id === options.variant);
    if (options.variant !== undefined && !worn) {
      throw new RenderError('invalid_scene', `no colourway "${options.variant}" to export`);
    }
    return writeUsdz(model, planMaterials(model, worn?.scene ?? options.scene, []));
  }
  throw new RenderError('invalid_scene', `unknown export format "${String(options.format)}"`);
}
