import type { Model } from '@atelier/render';

/** The most triangles the in-browser viewer is sent; heavier models are simplified first. */
export const VIEWER_TRIANGLES = 150_000;

export interface MeshPartHeader {
  name: string;
  material: string;
  /** Linear RGB from the source file, when it had a colour. */
  color: [number, number, number] | null;
  vertexCount: number;
  indexCount: number;
}

/**
 * The normalised model (metres, centred, resting on y = 0, +y up — what the engines render) for the
 * viewer: a little-endian uint32 header length, the JSON header padded to 4 bytes, then per part
 * its positions and normals (float32 xyz) and indices (uint32).
 */
export function packMesh(model: Model): Buffer {
  const parts: MeshPartHeader[] = model.parts.map((part) => ({
    name: part.name,
    material: part.material,
    color: part.sourceColor ?? null,
    vertexCount: part.positions.length / 3,
    indexCount: part.indices.length,
  }));
  const json = Buffer.from(JSON.stringify({ parts, bounds: model.bounds }));
  const padded = Math.ceil(json.length / 4) * 4;
  const chunks: Buffer[] = [Buffer.alloc(4), json, Buffer.alloc(padded - json.length, 0x20)];
  chunks[0]!.writeUInt32LE(padded, 0);
  for (const part of model.parts) {
    for (const array of [part.positions, part.normals, part.indices])
      chunks.push(Buffer.from(array.buffer, array.byteOffset, array.byteLength));
  }
  return Buffer.concat(chunks);
}
