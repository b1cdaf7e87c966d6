// The shapes every part of the render engine agrees on: importers produce a Model, categories and
// overrides produce a Scene, and each Engine turns (Model, Scene) into stills and turntable frames.

/** A triangle mesh part with one material. Positions and normals are xyz triples; indices are triangles. */
export interface MeshPart {
  name: string;
  positions: Float32Array;
  normals: Float32Array;
  indices: Uint32Array;
  /** Optional per-vertex linear RGB colours (rgb triples, 0..1) kept from the source file. */
  colors?: Float32Array;
  /**
   * Ambient occlusion per vertex baked at import: the share of surrounding light that reaches it
   * (1 in the open, lower where parts meet or near the floor). Both engines darken by it.
   */
  occlusion?: Float32Array;
  /** Optional per-vertex uv pairs, used with `texture`. */
  uvs?: Float32Array;
  /** Material slot name; resolved against Scene.materials, else the category default. */
  material: string;
  /** Base colour from the source file (linear RGB 0..1), when it had one. */
  sourceColor?: [number, number, number];
  /** Decoded RGBA texture from the source file (e.g. GLB base colour map). */
  texture?: { width: number; height: number; data: Uint8Array };
}

export interface Bounds {
  min: [number, number, number];
  max: [number, number, number];
}

/** A normalised model: metres, centred on the origin in x/z, resting on y = 0, +y up. */
export interface Model {
  parts: MeshPart[];
  bounds: Bounds;
  triangleCount: number;
  /** What the importer read, for logs and errors. */
  source: { format: ModelFormat; fileName: string; unitScale: number; upAxis: 'x' | 'y' | 'z' };
}

export type ModelFormat = 'step' | 'iges' | 'brep' | 'stl' | 'obj' | 'ply' | 'gltf' | 'glb' | '3mf';

export interface PbrMaterial {
  /** Linear RGB 0..1. */
  baseColor: [number, number, number];
  metalness: number;
  roughness: number;
  /** Gems: transmission 0..1 with an index of refraction. */
  transmission?: number;
  ior?: number;
  clearcoat?: number;
  /**
   * Brushed metal, 0..1: reflections stretch across the brushing, which runs around the model's
   * vertical axis (turned and spun parts, brushed cans and cases).
   */
  anisotropy?: number;
}

export type Background =
  | { kind: 'color'; color: string }
  | { kind: 'gradient'; top: string; bottom: string }
  | { kind: 'transparent' };

export interface CameraAngle {
  name: string;
  /** Degrees around the up axis (0 = front) and above the horizon. */
  azimuth: number;
  elevation: number;
  /** Vertical field of view in degrees. */
  fov: number;
  /** How much closer than the framing that fits the margin (2 = twice as close); 1 when absent. */
  zoom?: number;
}

export interface Scene {
  categoryId: string;
  cameras: CameraAngle[];
  /** Material slot name or '*' (every part) -> material. */
  materials: Record<string, PbrMaterial>;
  environment: { preset: 'studio' | 'jewellery' | 'neutral'; intensity: number; rotation: number };
  background: Background;
  /** Square or rectangular output size in pixels. */
  resolution: { width: number; height: number };
  turntable: { seconds: number; fps: number; axis: 'y'; elevation: number };
  /** Fraction of the frame left empty around the model on its tightest side (0.1 = 10 %). */
  margin: number;
  groundShadow: boolean;
  /** Parts whose name contains one of the `|`-separated words of `match` (any case) get `material`; checked after exact slots, before '*'. */
  materialRules?: Array<{ match: string; material: PbrMaterial }>;
  /** Tint the resolved material with the file's own colours where it has them (products, mechanical parts). */
  useSourceColors?: boolean;
  /** Linear exposure multiplier before tone mapping (1 = neutral). */
  exposure?: number;
}

export interface RenderProgress {
  stage: 'import' | 'prepare' | 'stills' | 'video' | 'preview' | 'done';
  frame?: number;
  frames?: number;
}

export interface RenderRequest {
  model: Model;
  scene: Scene;
  stills: number;
  video?: { seconds: number; fps: number; width: number; height: number };
  preview?: boolean;
  outDir: string;
  signal?: AbortSignal;
  onProgress?: (p: RenderProgress) => void;
}

export interface RenderResult {
  stills: string[];
  video?: string;
  preview?: string;
  seconds: number;
}

export interface Engine {
  readonly name: 'draft' | 'studio';
  render(request: RenderRequest): Promise<RenderResult>;
  close(): Promise<void>;
}

export type RenderErrorCode =
  | 'unsupported_format'
  | 'corrupt_file'
  | 'too_large'
  | 'too_many_triangles'
  | 'empty_model'
  | 'timeout'
  | 'cancelled'
  | 'engine_unavailable'
  | 'encoder_failed'
  | 'invalid_scene'
  | 'render_failed';

export class RenderError extends Error {
  constructor(
    readonly code: RenderErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'RenderError';
  }
}
