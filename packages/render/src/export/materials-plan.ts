import type { Model, PbrMaterial, Scene } from '../types';
import { materialForPart } from '../scene/build-scene';
import { finishOf, MATERIALS, type MaterialName } from '../scene/materials';

/** A colourway to export: its scene's materials replace the project's for the parts they change. */
export interface ExportVariant {
  /** The colourway's slug (`rose-gold`), kept in the file's extras. */
  id: string;
  /** What a viewer's switcher shows. */
  name: string;
  /** The project's scene with the colourway's finishes laid over it (as the renders use). */
  scene: Scene;
}

/** The distinct materials a model uses, and which of them each part wears by default and per colourway. */
export interface MaterialPlan {
  materials: Array<{ name: string; pbr: PbrMaterial }>;
  /** Per part: its default material, and per colourway (by index) the material it switches to, when another. */
  parts: Array<{ material: number; variants: Map<number, number> }>;
}

const FINISH_NAMES = Object.keys(MATERIALS) as MaterialName[];

/** Materials shared by parts (and by colourways) appear once, named after their finish when they are one. */
export function planMaterials(model: Model, scene: Scene, variants: readonly ExportVariant[]): MaterialPlan {
  const materials: MaterialPlan['materials'] = [];
  const byKey = new Map<string, number>();
  const indexOf = (pbr: PbrMaterial): number => {
    const key = JSON.stringify(pbr);
    let index = byKey.get(key);
    if (index === undefined) {
      index = materials.length;
      const finish = finishOf(pbr, FINISH_NAMES) ?? 'material';
      const taken = materials.filter((m) => m.name === finish || m.name.startsWith(`${finish}-`)).length;
      materials.push({ name: taken === 0 ? finish : `${finish}-${taken + 1}`, pbr });
      byKey.set(key, index);
    }
    return index;
  };
  const parts = model.parts.map((part) => {
    const material = indexOf(materialForPart(scene, part));
    const changed = new Map<number, number>();
    variants.forEach((variant, v) => {
      const other = indexOf(materialForPart(variant.scene, part));
      if (other !== material) changed.set(v, other);
    });
    return { material, variants: changed };
  });
  return { materials, parts };
}
