import { z } from 'zod';
import { RenderError, type MeshPart, type PbrMaterial, type Scene } from '../types';
import { findCategory, listCategories } from './categories';
import { withBrushing } from './materials';

export type DeepPartial<T> =
  T extends Array<infer _U> ? T : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;
export type SceneOverrides = DeepPartial<Scene>;

const rgb = z.tuple([z.number().min(0).max(1), z.number().min(0).max(1), z.number().min(0).max(1)]);
const cssColor = z.string().regex(/^#([0-9a-f]{3}|[0-9a-f]{6})$/i, 'a #rgb or #rrggbb colour');
const pbrMaterialSchema = z.object({
  baseColor: rgb,
  metalness: z.number().min(0).max(1),
  roughness: z.number().min(0).max(1),
  transmission: z.number().min(0).max(1).optional(),
  ior: z.number().min(1).max(3).optional(),
  clearcoat: z.number().min(0).max(1).optional(),
  anisotropy: z.number().min(0).max(1).optional(),
});

/** The whole scene, validated after overrides are merged in (API input reaches engines only through it). */
export const sceneSchema = z.object({
  categoryId: z.string().min(1),
  cameras: z
    .array(
      z.object({
        name: z.string().min(1),
        azimuth: z.number().min(-360).max(360),
        elevation: z.number().min(-89.9).max(89.9),
        fov: z.number().min(5).max(100),
        zoom: z.number().min(0.25).max(4).optional(),
      }),
    )
    .min(1),
  materials: z.record(z.string(), pbrMaterialSchema),
  materialRules: z
    .array(z.object({ match: z.string().min(1).max(200), material: pbrMaterialSchema }))
    .optional(),
  useSourceColors: z.boolean().optional(),
  environment: z.object({
    preset: z.enum(['studio', 'jewellery', 'neutral']),
    intensity: z.number().min(0).max(10),
    rotation: z.number().min(-360).max(360),
  }),
  background: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('color'), color: cssColor }),
    z.object({ kind: z.literal('gradient'), top: cssColor, bottom: cssColor }),
    z.object({ kind: z.literal('transparent') }),
  ]),
  resolution: z.object({
    width: z.number().int().min(16).max(8192),
    height: z.number().int().min(16).max(8192),
  }),
  turntable: z.object({
    seconds: z.number().min(0.1).max(120),
    fps: z.number().int().min(1).max(120),
    axis: z.literal('y'),
    elevation: z.number().min(-89.9).max(89.9),
  }),
  margin: z.number().min(0).max(0.45),
  groundShadow: z.boolean(),
  exposure: z.number().min(0.05).max(20).optional(),
}) satisfies z.ZodType<Scene>;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Objects merge key by key; arrays and scalars replace; undefined leaves the base alone. A material
 * replaces the one of its slot whole: matte plastic over a glossy preset keeps no clear coat.
 */
export function deepMerge<T>(base: T, override: DeepPartial<T> | undefined): T {
  if (override === undefined) return base;
  if (!isPlainObject(base) || !isPlainObject(override)) return override as T;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) {
    if (value === undefined) continue;
    if (key === 'materials' && isPlainObject(value) && isPlainObject(out[key])) {
      out[key] = { ...out[key], ...value };
      continue;
    }
    // A different background kind replaces the whole background rather than mixing fields.
    const replaces =
      key === 'background' &&
      isPlainObject(value) &&
      isPlainObject(out[key]) &&
      value.kind !== (out[key] as { kind?: unknown }).kind;
    out[key] = replaces ? value : deepMerge(out[key], value as DeepPartial<unknown>);
  }
  return out as T;
}

/**
 * The scene of a category with project and studio settings laid over it, in order (later wins).
 * Throws RenderError('invalid_scene') for an unknown category or an override out of range.
 */
export function buildScene(categoryId: string, ...overrides: Array<SceneOverrides | undefined>): Scene {
  const category = findCategory(categoryId);
  if (!category) {
    const known = listCategories()
      .map((c) => c.id)
      .join(', ');
    throw new RenderError('invalid_scene', `unknown category "${categoryId}" (known: ${known})`);
  }
  const merged = overrides.reduce<Scene>(
    (scene, o) => deepMerge<Scene>(scene, o),
    structuredClone(category.scene),
  );
  const parsed = sceneSchema.safeParse(merged);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new RenderError('invalid_scene', `scene setting ${issue.path.join('.')}: ${issue.message}`);
  }
  return parsed.data;
}

/** Neutral greys are what CAD tools write when nobody picked a colour; they carry no intent. */
const isChromatic = ([r, g, b]: [number, number, number]): boolean =>
  Math.max(r, g, b) - Math.min(r, g, b) > 0.04;

const FALLBACK: PbrMaterial = { baseColor: [0.7, 0.7, 0.7], metalness: 0, roughness: 0.5 };

/**
 * The material of a part: its exact slot, else the first matching rule, else '*'. With
 * useSourceColors, a part's own (non-grey) colour becomes a painted finish in that colour.
 */
export function materialForPart(
  scene: Scene,
  part: Pick<MeshPart, 'name' | 'material' | 'sourceColor'>,
): PbrMaterial {
  const names = `${part.name} ${part.material}`.toLowerCase();
  const rule = scene.materialRules?.find((r) =>
    r.match
      .toLowerCase()
      .split('|')
      .some((word) => word && names.includes(word)),
  );
  const resolved = withBrushing(
    scene.materials[part.material] ?? rule?.material ?? scene.materials['*'] ?? FALLBACK,
  );
  const source = part.sourceColor;
  if (scene.useSourceColors && source && !scene.materials[part.material] && !rule && isChromatic(source)) {
    // A coloured CAD part is painted or moulded: keep its colour on a dielectric finish, unbrushed.
    const painted: PbrMaterial = {
      ...resolved,
      baseColor: [...source],
      metalness: 0,
      roughness: Math.max(0.25, resolved.roughness),
    };
    delete painted.anisotropy;
    return painted;
  }
  return resolved;
}
