/** A mesh as a loader produced it: source units and axes, before normalisation. */
export interface RawPart {
  name: string;
  positions: Float32Array;
  /** Missing normals are computed with a crease angle during normalisation. */
  normals?: Float32Array;
  indices?: Uint32Array;
  /** Per-vertex linear RGB. */
  colors?: Float32Array;
  uvs?: Float32Array;
  /** Linear RGB. */
  color?: [number, number, number];
  /** sRGB-encoded RGBA bytes, top row first (glTF convention: uv (0,0) is the top-left). */
  texture?: { width: number; height: number; data: Uint8Array };
}

export interface LoadedMesh {
  parts: RawPart[];
  /** Metres per source unit. */
  unitScale: number;
  /** The format's convention for "up", before any guess from the shape. */
  conventionalUp: 'y' | 'z';
}
