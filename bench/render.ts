import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ffmpegBinary } from '../packages/render/src/encode/binaries';
import {
  buildScene,
  createEngine,
  probeVideo,
  stillCameras,
  turntableCamera,
  type EngineName,
  type Model,
  type Scene,
} from '../packages/render/src/index';
import { studioGraphics } from '../packages/render/src/engines/studio/browser';
import { binaryStl, knotRing } from './lib/knot-ring';

// Render: a full studio job — 6 stills at 2048² and an 8-second 1080p30 turntable — on a
// 200,000-triangle ring, with each engine, and with f3d rendering the same frames when it is on
// PATH (Debian package `f3d`; under Xvfb when there is no display). Goals on 2 cores (issue 25):
// draft ≤ 10 s, studio ≤ 60 s, draft ≥ 10× faster than f3d. Each engine is printed as ratios of its
// wall time and of its CPU time spread over the cores (what it takes on an idle machine) to its goal
// and to f3d's in the same run: on a shared machine the wall time also counts other people's work.
// RENDER_BENCH_ENGINES=draft,studio,f3d picks which to run (all by default).

const STILLS = 6;
const STILL_SIZE = 2048;
const VIDEO = { seconds: 8, fps: 30, width: 1920, height: 1080 };
const GOALS = { draft: 10, studio: 60, draftOverF3d: 10 };

/** CPU seconds used so far by this process and everything it started (browser, workers, ffmpeg). */
function treeCpuSeconds(): number {
  const ticks = 100;
  const table = new Map<number, { parent: number; cpu: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime, stime, and the waited-for children's cutime, cstime.
      const cpu = (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / ticks;
      table.set(Number(entry), { parent: Number(fields[1]), cpu });
    } catch {
      // The process ended while we read the table.
    }
  }
  let total = 0;
  for (const [pid, { cpu }] of table) {
    for (let p = pid; p > 1; p = table.get(p)?.parent ?? 0) {
      if (p === process.pid) {
        total += cpu;
        break;
      }
    }
  }
  return total;
}

interface Timing {
  seconds: number;
  cpu: number;
  note?: string;
}

async function timeEngine(name: EngineName, model: Model, scene: Scene, outDir: string): Promise<Timing> {
  const engine = await createEngine(name);
  try {
    // Start-up (browser launch, worker pool) is paid once per process, not per job: warm up first.
    const warm = performance.now();
    await engine.render({
      model,
      scene: { ...scene, resolution: { width: 64, height: 64 } },
      stills: 1,
      outDir: join(outDir, 'warm-up'),
    });
    const startup = (performance.now() - warm) / 1000;
    const cpu = treeCpuSeconds();
    const started = performance.now();
    const result = await engine.render({ model, scene, stills: STILLS, preview: true, video: VIDEO, outDir });
    const seconds = (performance.now() - started) / 1000;
    const used = treeCpuSeconds() - cpu;
    const probe = await probeVideo(result.video!);
    if (result.stills.length !== STILLS || probe.frames !== VIDEO.seconds * VIDEO.fps) {
      throw new Error(`${name} produced ${result.stills.length} stills and ${probe.frames} frames`);
    }
    // Which graphics the studio's browser drew with: a GPU (and which), or SwiftShader and why.
    const graphics = name === 'studio' ? studioGraphics() : undefined;
    const drewWith = graphics ? `; drew with ${graphics.renderer} (${graphics.reason})` : '';
    return { seconds, cpu: used, note: `warm-up ${startup.toFixed(1)} s${drewWith}` };
  } finally {
    await engine.close();
  }
}

function run1(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) =>
      code === 0
        ? resolve()
        : reject(
            new Error(
              `${command} ${args.join(' ')} failed (${signal ?? `exit ${code}`}): ${stderr.slice(-500)}`,
            ),
          ),
    );
  });
}

/** f3d renders the same stills and turntable frames (one process per image, all cores busy), then ffmpeg encodes them. */
async function timeF3d(model: Model, scene: Scene, dir: string): Promise<Timing | undefined> {
  if (spawnSync('f3d', ['--version']).status !== 0) return undefined;
  let xvfb: ChildProcess | undefined;
  const env = { ...process.env };
  if (!env.DISPLAY) {
    if (spawnSync('sh', ['-c', 'command -v Xvfb']).status !== 0)
      return { seconds: NaN, cpu: NaN, note: 'no display and no Xvfb: skipped' };
    const display = `:${90 + (process.pid % 100)}`;
    xvfb = spawn('Xvfb', [display, '-screen', '0', '2100x2100x24', '-nolisten', 'tcp'], { stdio: 'ignore' });
    env.DISPLAY = display;
    await new Promise((r) => setTimeout(r, 1500));
  }
  try {
    await mkdir(join(dir, 'frames'), { recursive: true });
    const stl = join(dir, 'model.stl');
    await writeFile(stl, binaryStl(model));
    const look = [
      '--up=+Y',
      '--color=1,0.71,0.29',
      '--metallic=1',
      '--roughness=0.12',
      '-t',
      '-a',
      '--bg-color=1,1,1',
      '--quiet',
    ];
    const jobs: string[][] = stillCameras(scene, STILLS).map((camera, i) => [
      stl,
      `--output=${join(dir, `still-${i + 1}.png`)}`,
      `--resolution=${STILL_SIZE},${STILL_SIZE}`,
      `--camera-azimuth-angle=${camera.azimuth}`,
      `--camera-elevation-angle=${camera.elevation}`,
      ...look,
    ]);
    const turntable = turntableCamera(scene);
    const frames = VIDEO.seconds * VIDEO.fps;
    for (let f = 0; f < frames; f++) {
      jobs.push([
        stl,
        `--output=${join(dir, 'frames', `frame-${String(f).padStart(4, '0')}.png`)}`,
        `--resolution=${VIDEO.width},${VIDEO.height}`,
        `--camera-azimuth-angle=${turntable.azimuth + (360 * f) / frames}`,
        `--camera-elevation-angle=${turntable.elevation}`,
        ...look,
      ]);
    }
    const cpu = treeCpuSeconds();
    const started = performance.now();
    let next = 0;
    let crashes = 0;
    // f3d 1.3 under Xvfb now and then dies with SIGSEGV on start-up: rerun that image (counted in the time).
    const render = async (args: string[]): Promise<void> => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await run1('f3d', args, env);
        } catch (error) {
          if (attempt >= 3) throw error;
          crashes++;
        }
      }
    };
    await Promise.all(
      Array.from({ length: availableParallelism() }, async () => {
        while (next < jobs.length) await render(jobs[next++]!);
      }),
    );
    await run1(
      ffmpegBinary(),
      [
        '-loglevel',
        'error',
        '-y',
        '-framerate',
        String(VIDEO.fps),
        '-i',
        join(dir, 'frames', 'frame-%04d.png'),
        '-c:v',
        'libx264',
        '-preset',
        'veryfast',
        '-crf',
        '18',
        '-pix_fmt',
        'yuv420p',
        '-movflags',
        '+faststart',
        join(dir, 'turntable.mp4'),
      ],
      env,
    );
    const version =
      spawnSync('f3d', ['--version'])
        .stdout.toString()
        .match(/\d+\.\d+\.\d+/)?.[0] ?? '';
    return {
      seconds: (performance.now() - started) / 1000,
      cpu: treeCpuSeconds() - cpu,
      note: `f3d ${version}, ${jobs.length} processes, ${crashes} crashed and rerun`,
    };
  } finally {
    xvfb?.kill();
  }
}

export async function run() {
  const model = knotRing();
  const scene = buildScene('ring', { resolution: { width: STILL_SIZE, height: STILL_SIZE } });
  const picked = (process.env.RENDER_BENCH_ENGINES ?? 'draft,studio,f3d').split(',');
  const dir = await mkdtemp(join(tmpdir(), 'atelier-bench-render-'));
  console.log(
    `render: ${model.triangleCount.toLocaleString('en')} triangles; ${STILLS} stills at ${STILL_SIZE}² + ${VIDEO.seconds} s ${VIDEO.height}p${VIDEO.fps} turntable ` +
      `(${VIDEO.seconds * VIDEO.fps} frames); ${availableParallelism()} cores; load average ${loadavg()[0]!.toFixed(1)} at start`,
  );
  const results: Partial<Record<'draft' | 'studio' | 'f3d', Timing>> = {};
  try {
    for (const name of ['draft', 'studio'] as const) {
      if (!picked.includes(name)) continue;
      results[name] = await timeEngine(name, model, scene, join(dir, name));
      report(name, results[name]!);
    }
    if (picked.includes('f3d')) {
      const f3d = await timeF3d(model, scene, join(dir, 'f3d'));
      if (!f3d) console.log('  f3d     not installed (apt-get install f3d xvfb): comparison skipped');
      else {
        results.f3d = f3d;
        report('f3d', f3d);
      }
    }
    console.log(`  load average ${loadavg()[0]!.toFixed(1)} at the end`);
    const f3d = results.f3d && Number.isFinite(results.f3d.seconds) ? results.f3d : undefined;
    for (const name of ['draft', 'studio'] as const) {
      const timing = results[name];
      if (timing) printRatios(name, timing, GOALS[name], f3d);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** CPU time spread over every core: the wall time on an idle machine that scales perfectly. */
const idleSeconds = (t: Timing): number => t.cpu / availableParallelism();

function report(name: string, t: Timing): void {
  console.log(
    `  ${name.padEnd(7)} ${t.seconds.toFixed(1).padStart(6)} s wall, ${t.cpu.toFixed(1).padStart(6)} CPU-s (${idleSeconds(t).toFixed(1)} s on ${availableParallelism()} idle cores)${t.note ? `; ${t.note}` : ''}`,
  );
}

function printRatios(name: 'draft' | 'studio', t: Timing, goal: number, f3d: Timing | undefined): void {
  const verdict = (ratio: number): string => `${ratio.toFixed(2)} of it (${ratio <= 1 ? 'met' : 'NOT met'})`;
  console.log(
    `  ${name} vs its goal ≤ ${goal} s: wall ${verdict(t.seconds / goal)}, CPU/cores ${verdict(idleSeconds(t) / goal)}`,
  );
  if (!f3d) return;
  const wall = f3d.seconds / t.seconds;
  const cpu = f3d.cpu / t.cpu;
  const goalNote =
    name === 'draft'
      ? `; goal ≥ ${GOALS.draftOverF3d}×: ${Math.min(wall, cpu) >= GOALS.draftOverF3d ? 'met' : 'NOT met'}`
      : '';
  console.log(
    `  ${name} vs f3d: ${wall.toFixed(1)}× faster by wall time, ${cpu.toFixed(1)}× by CPU time${goalNote}`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
