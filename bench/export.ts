import { buildScene, exportModel, material, type ExportVariant } from '../packages/render/src/index';
import { knotRing } from './lib/knot-ring';

// Files a product page serves (issue 27): the standing 200,000-triangle ring exported as a
// meshopt-compressed GLB with three colourways (and as a plain one), and as a USDZ for AR Quick
// Look. The GLB's size is printed against the source model's (the same mesh as a binary STL, and as
// plain float buffers) and against the page's 5 MB limit, all measured in this run.

const GLB_LIMIT_BYTES = 5_000_000;

const megabytes = (bytes: number): string => `${(bytes / 1e6).toFixed(2)} MB`;

export async function run(): Promise<void> {
  const model = knotRing();
  const vertices = model.parts.reduce((n, part) => n + part.positions.length / 3, 0);
  // A binary STL: 84-byte header and count, 50 bytes a triangle. Plain buffers: float xyz and
  // normals, 32-bit indices, as an uncompressed GLB would hold them.
  const stlBytes = 84 + 50 * model.triangleCount;
  const plainBytes = vertices * 24 + model.triangleCount * 12;
  const scene = buildScene('ring');
  const variants: ExportVariant[] = (['white-gold', 'rose-gold', 'platinum'] as const).map((finish) => ({
    id: finish,
    name: finish,
    scene: buildScene('ring', { materials: { '*': material(finish) } }),
  }));

  let started = performance.now();
  const glb = await exportModel(model, { format: 'glb', scene, variants });
  const glbSeconds = (performance.now() - started) / 1000;
  const plain = await exportModel(model, { format: 'glb', scene, variants, compression: 'none' });
  started = performance.now();
  const usdz = await exportModel(model, { format: 'usdz', scene });
  const usdzSeconds = (performance.now() - started) / 1000;

  console.log(`model: ${model.triangleCount} triangles, ${vertices} vertices, ${variants.length} colourways`);
  console.log(
    `source as binary STL: ${megabytes(stlBytes)}; as plain float buffers: ${megabytes(plainBytes)}`,
  );
  console.log(
    `GLB (meshopt + quantised): ${glb.length} bytes (${megabytes(glb.length)}) in ${glbSeconds.toFixed(2)} s — ` +
      `${(glb.length / stlBytes).toFixed(3)}× the STL, ${(glb.length / plainBytes).toFixed(3)}× the plain buffers, ` +
      `${(glb.length / GLB_LIMIT_BYTES).toFixed(3)}× the 5 MB limit (${glb.length <= GLB_LIMIT_BYTES ? 'within' : 'OVER'})`,
  );
  console.log(
    `plain GLB (floats, for viewers without the meshopt decoder): ${plain.length} bytes (${megabytes(plain.length)})`,
  );
  console.log(
    `USDZ (usda, stored): ${usdz.length} bytes (${megabytes(usdz.length)}) in ${usdzSeconds.toFixed(2)} s — ` +
      `${(usdz.length / stlBytes).toFixed(3)}× the STL`,
  );
}
