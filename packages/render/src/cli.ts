// atelier-render: render a CAD or mesh file into product stills, a turntable video and a preview.
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createEngine, ENGINE_NAMES, type EngineName } from './engines/create-engine';
import { closeDraftWorkers } from './engines/draft/raster-pool';
import { exportModel, type ExportFormat } from './export/export-model';
import { importModel } from './import/import-model';
import { closeImportWorkers } from './import/import-workers';
import { listCategories } from './scene/categories';
import { buildScene } from './scene/build-scene';
import { RenderError, type RenderProgress } from './types';

const USAGE = `usage: atelier-render <model> [options]

  --category <id>      ${listCategories()
    .map((c) => c.id)
    .join(' | ')} (default ring)
  --engine <name>      ${ENGINE_NAMES.join(' | ')} (default draft)
  --stills <n>         number of stills (default 6)
  --size <px>          still size, square, or WxH (default 2048)
  --video <spec>       turntable, e.g. 8s@30 (seconds@fps); omit for none
  --video-size <WxH>   video size (default 1920x1080)
  --no-preview         skip the 512 px preview
  --out <dir>          output directory (default ./render-out)
  --threads <n>        draft engine worker threads (default: all cores)
  --export <formats>   write the model as glb and/or usdz (glb,usdz) with the category's
                       materials, at real size, instead of rendering
`;

const EXPORT_FORMATS: readonly ExportFormat[] = ['glb', 'usdz'];

function fail(message: string): never {
  process.stderr.write(`atelier-render: ${message}\n\n${USAGE}`);
  process.exit(2);
}

function parseSize(text: string, what: string): { width: number; height: number } {
  const match = /^(\d+)(?:x(\d+))?$/i.exec(text);
  if (!match) fail(`${what} must look like 2048 or 1920x1080`);
  const width = Number(match[1]);
  return { width, height: match[2] ? Number(match[2]) : width };
}

function parseVideo(text: string): { seconds: number; fps: number } {
  const match = /^(\d+(?:\.\d+)?)s(?:@(\d+))?$/i.exec(text);
  if (!match) fail('--video must look like 8s@30');
  return { seconds: Number(match[1]), fps: match[2] ? Number(match[2]) : 30 };
}

/** A one-line progress bar on stderr (redrawn in place on terminals, one line per stage otherwise). */
function progressBar(): (p: RenderProgress) => void {
  const tty = process.stderr.isTTY;
  let lastStage = '';
  return (p) => {
    const fraction = p.frames ? (p.frame ?? 0) / p.frames : p.stage === 'done' ? 1 : 0;
    const width = 28;
    const filled = Math.round(fraction * width);
    const counter = p.frames ? ` ${p.frame}/${p.frames}` : '';
    const line = `${p.stage.padEnd(8)} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}]${counter}`;
    if (tty) process.stderr.write(`\r${line}\x1b[K${p.stage === 'done' ? '\n' : ''}`);
    else if (p.stage !== lastStage || p.frame === p.frames) process.stderr.write(`${line}\n`);
    lastStage = p.stage;
  };
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      category: { type: 'string', default: 'ring' },
      engine: { type: 'string', default: 'draft' },
      stills: { type: 'string', default: '6' },
      size: { type: 'string', default: '2048' },
      video: { type: 'string' },
      'video-size': { type: 'string', default: '1920x1080' },
      preview: { type: 'boolean', default: true },
      'no-preview': { type: 'boolean', default: false },
      out: { type: 'string', default: 'render-out' },
      threads: { type: 'string' },
      export: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const [file] = positionals;
  if (!file || positionals.length > 1) fail('give exactly one model file');
  if (!ENGINE_NAMES.includes(values.engine as EngineName)) fail(`unknown engine "${values.engine}"`);
  const stills = Number(values.stills);
  if (!Number.isInteger(stills) || stills < 0 || stills > 64)
    fail('--stills must be a whole number from 0 to 64');
  const threads = values.threads === undefined ? undefined : Number(values.threads);
  if (threads !== undefined && !(Number.isInteger(threads) && threads > 0))
    fail('--threads must be a positive whole number');
  const resolution = parseSize(values.size, '--size');
  const video = values.video
    ? { ...parseVideo(values.video), ...parseSize(values['video-size'], '--video-size') }
    : undefined;
  const outDir = resolve(values.out);
  const exports = values.export?.split(',');
  if (exports && !exports.every((format) => EXPORT_FORMATS.includes(format as ExportFormat)))
    fail(`--export takes ${EXPORT_FORMATS.join(' and/or ')}, comma-separated`);

  const started = performance.now();
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  const onProgress = progressBar();
  onProgress({ stage: 'import' });
  const model = await importModel(resolve(file), { signal: controller.signal }).finally(closeImportWorkers);
  const scene = buildScene(values.category, {
    resolution,
    ...(video ? { turntable: { seconds: video.seconds, fps: video.fps } } : {}),
  });
  if (exports) {
    await mkdir(outDir, { recursive: true });
    for (const format of exports as ExportFormat[]) {
      const path = join(outDir, `model.${format}`);
      await writeFile(path, await exportModel(model, { format, scene }));
      process.stdout.write(`${format.padEnd(10)}${path}\n`);
    }
    return;
  }
  const engine = await createEngine(values.engine as EngineName, { draft: { threads } });
  try {
    const result = await engine.render({
      model,
      scene,
      stills,
      video,
      preview: values.preview && !values['no-preview'],
      outDir,
      signal: controller.signal,
      onProgress,
    });
    process.stdout.write(
      `model     ${model.source.fileName}: ${model.triangleCount} triangles, ${model.parts.length} parts\n`,
    );
    for (const still of result.stills) process.stdout.write(`still     ${still}\n`);
    if (result.video) process.stdout.write(`video     ${result.video}\n`);
    if (result.preview) process.stdout.write(`preview   ${result.preview}\n`);
    process.stdout.write(
      `time      ${((performance.now() - started) / 1000).toFixed(1)} s (render ${result.seconds.toFixed(1)} s)\n`,
    );
  } finally {
    await engine.close();
    await closeDraftWorkers();
  }
}

main().catch((error: unknown) => {
  if (error instanceof RenderError) {
    process.stderr.write(`\natelier-render: ${error.code}: ${error.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`\natelier-render: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
