export interface OcctRequest {
  format: 'step' | 'iges' | 'brep';
  bytes: Uint8Array;
  linearDeflection: number;
  angularDeflection: number;
}

export interface OcctMesh {
  name: string;
  positions: Float32Array;
  normals?: Float32Array;
  indices: Uint32Array;
  /** Per-vertex colours when faces carried their own (sRGB 0..1 as OpenCascade reports them). */
  colors?: Float32Array;
  color?: [number, number, number];
}

export type OcctResponse = { ok: true; meshes: OcctMesh[] } | { ok: false; message: string };
