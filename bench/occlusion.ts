import { loadavg } from 'node:os';
import { TorusKnotGeometry } from 'three';
import { normalizeModel } from '../packages/render/src/import/normalize';
import { bakeOcclusion } from '../packages/render/src/import/occlusion';
import type { Model } from '../packages/render/src/types';

// Ambient occlusion baked at import (issue 25): its CPU time on the standing job's 200,000-triangle
// model, against its limit (a few seconds at most in an import worker) and against the rest of the
// import's normalising (normals, axes, centring) of the same model, measured in the same run.

const LIMIT_CPU_SECONDS = 3;
const ROUNDS = 3;

/** The standing job's model: a torus knot of 200,000 triangles, in centimetres like a small part. */
function knot(): { positions: Float32Array; indices: Uint32Array } {
  const geometry = new TorusKnotGeometry(1, 0.3, 1000, 100);
  return {
    positions: new Float32Array(geometry.getAttribute('position').array),
    indices: new Uint32Array(geometry.getIndex()!.array),
  };
}

/** CPU seconds of `work` on this thread (both stages are single-threaded), with its result. */
function timed<T>(work: () => T): { cpu: number; result: T } {
  const before = process.cpuUsage();
  const result = work();
  const used = process.cpuUsage(before);
  return { cpu: (used.user + used.system) / 1e6, result };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1]!;

export async function run(): Promise<void> {
  const normalise: number[] = [];
  const occlusion: number[] = [];
  let model: Model | undefined;
  for (let round = 0; round < ROUNDS; round++) {
    const mesh = knot();
    const normalised = timed(() =>
      normalizeModel(
        { parts: [{ name: 'knot', ...mesh }], unitScale: 0.01, conventionalUp: 'y' },
        { format: 'stl', fileName: 'knot.stl' },
      ),
    );
    normalise.push(normalised.cpu);
    const baked = timed(() => bakeOcclusion(normalised.result));
    occlusion.push(baked.cpu);
    model = baked.result;
  }
  const vertices = model!.parts.reduce((n, p) => n + p.positions.length / 3, 0);
  const ao = median(occlusion);
  const rest = median(normalise);
  console.log(
    `  ${model!.triangleCount} triangles, ${vertices} vertices; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(
    `  occlusion bake ${ao.toFixed(2)} CPU-s (median of ${ROUNDS}); normalising ${rest.toFixed(2)} CPU-s`,
  );
  console.log(
    `  vs its limit ≤ ${LIMIT_CPU_SECONDS} CPU-s: ${(ao / LIMIT_CPU_SECONDS).toFixed(2)} of it (${ao <= LIMIT_CPU_SECONDS ? 'met' : 'NOT met'}); ${(ao / rest).toFixed(2)}× the normalising`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
