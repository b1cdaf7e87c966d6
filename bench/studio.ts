import { io } from 'socket.io-client';
import { startWorkerRole } from '../apps/server/src/jobs/worker-role';
import { ringMesh } from '../packages/render/test/fixtures/shapes';
import { binaryStl } from '../packages/render/test/fixtures/write-formats';
import { startAtelier, type BenchApp } from './lib/atelier-app';
import { post, uploadModel } from './lib/projects';

// Studio: 20 inputs queued at once on one machine (API and worker in one process, the default shape).
// Prints the time to the last output and the API latency p99 while rendering against the same calls
// when idle; goal: p99 while rendering <= 3x idle, so renders never make browsing slow.

const INPUTS = Number(process.env.BENCH_STUDIO_INPUTS ?? 20);
const SETTINGS = {
  resolution: { width: 1024, height: 1024 },
  stills: 2,
  video: true,
  turntable: { seconds: 4, fps: 24 },
};
const PROBES = ['/api/browse/folders/all', '/api/user', '/api/browse/projects/all'];

interface AssetEvent {
  job_id: string;
  status: 'queued' | 'rendering' | 'done' | 'failed';
}

/** Calls the browsing probes one after another until stopped; returns every latency in ms. */
function probeLatency(atelier: BenchApp) {
  const latencies: number[] = [];
  let running = true;
  const done = (async () => {
    for (let i = 0; running; i++) {
      const started = performance.now();
      const answer = await fetch(`${atelier.url}${PROBES[i % PROBES.length]}`, { headers: atelier.headers });
      await answer.arrayBuffer();
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      return latencies;
    },
  };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

export async function run(): Promise<void> {
  const atelier = await startAtelier();
  const worker = startWorkerRole(atelier.app.deps);
  const socket = io(atelier.url, { path: '/socket.io', extraHeaders: { cookie: atelier.headers.cookie! } });
  try {
    const project = (await post(atelier, '/api/create-project', {
      project_name: 'Bench collection',
      description: '',
    })) as {
      id: string;
    };
    for (const [updateKey, updateValue] of Object.entries(SETTINGS)) {
      await post(atelier, '/api/update-project-settings', { project_id: project.id, updateKey, updateValue });
    }
    for (let i = 0; i < INPUTS; i++) {
      const mesh = ringMesh({
        segments: 160 + i * 8,
        sides: 32,
        radius: 8 + (i % 5),
        band: 1.6 + (i % 3) * 0.3,
      });
      await uploadModel(atelier, project.id, `ring-${String(i + 1).padStart(2, '0')}.stl`, binaryStl(mesh));
    }

    const idleProbe = probeLatency(atelier);
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const idle = await idleProbe.stop();

    const finished = new Set<string>();
    let failed = 0;
    const allDone = new Promise<void>((resolve) =>
      socket.on('project.asset', (event: AssetEvent) => {
        if ((event.status === 'done' || event.status === 'failed') && !finished.has(event.job_id)) {
          finished.add(event.job_id);
          if (event.status === 'failed') failed += 1;
          if (finished.size === INPUTS) resolve();
        }
      }),
    );
    const started = performance.now();
    const busyProbe = probeLatency(atelier);
    const queued = (
      await post(atelier, '/api/generateAssets', { project_id: project.id, category_id: 'ring' })
    ).data as unknown[];
    await allDone;
    const seconds = (performance.now() - started) / 1000;
    const busy = await busyProbe.stop();

    const idleP99 = percentile(idle, 99);
    const busyP99 = percentile(busy, 99);
    console.log(
      `${queued.length} renders (${SETTINGS.stills} stills at ${SETTINGS.resolution.width}² + a ${SETTINGS.turntable.seconds} s turntable each), ${failed} failed`,
    );
    console.log(
      `time to the last output: ${seconds.toFixed(1)} s (${(seconds / INPUTS).toFixed(1)} s per input)`,
    );
    console.log(
      `API latency idle:      p50 ${percentile(idle, 50).toFixed(1)} ms, p99 ${idleP99.toFixed(1)} ms (${idle.length} calls)`,
    );
    console.log(
      `API latency rendering: p50 ${percentile(busy, 50).toFixed(1)} ms, p99 ${busyP99.toFixed(1)} ms (${busy.length} calls)`,
    );
    console.log(
      `p99 rendering / idle: ${(busyP99 / idleP99).toFixed(2)}x (goal <= 3x) ${busyP99 <= 3 * idleP99 ? 'MET' : 'MISSED'}`,
    );
  } finally {
    socket.close();
    await worker.close();
    await atelier.close();
  }
}
