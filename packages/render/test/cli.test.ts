import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeVideo } from '../src/index';
import { boxMesh } from './fixtures/shapes';
import { binaryStl } from './fixtures/write-formats';

const run = promisify(execFile);
// The CLI source itself (bin/atelier-render.mjs would prefer a possibly stale dist build).
const cli = ['--import', 'tsx', fileURLToPath(new URL('../src/cli.ts', import.meta.url))];
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'render-cli-'));
  await writeFile(join(dir, 'part.stl'), binaryStl(boxMesh([30, 20, 10])));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('atelier-render CLI', () => {
  it('renders stills, a preview and a turntable and prints where each went', async () => {
    const out = join(dir, 'out');
    const { stdout, stderr } = await run(process.execPath, [
      ...cli,
      join(dir, 'part.stl'),
      '--category',
      'mechanical',
      '--stills',
      '2',
      '--size',
      '120x90',
      '--video',
      '1s@10',
      '--video-size',
      '80x60',
      '--out',
      out,
    ]);
    expect(stdout).toContain(`still     ${join(out, 'still-01-isometric.png')}`);
    expect(stdout).toContain(`still     ${join(out, 'still-02-front.png')}`);
    expect(stdout).toContain(`video     ${join(out, 'turntable.mp4')}`);
    expect(stdout).toContain(`preview   ${join(out, 'preview.png')}`);
    expect(stderr).toMatch(/video +\[#+\] 10\/10/);
    expect(await sharp(join(out, 'still-01-isometric.png')).metadata()).toMatchObject({
      width: 120,
      height: 90,
    });
    expect(await probeVideo(join(out, 'turntable.mp4'))).toMatchObject({
      fps: 10,
      frames: 10,
      width: 80,
      height: 60,
    });
  });

  it('exports the model as a GLB and a USDZ instead of rendering with --export', async () => {
    const out = join(dir, 'export');
    const { stdout } = await run(process.execPath, [
      ...cli,
      join(dir, 'part.stl'),
      '--export',
      'glb,usdz',
      '--out',
      out,
    ]);
    expect(stdout).toBe(`glb       ${join(out, 'model.glb')}\nusdz      ${join(out, 'model.usdz')}\n`);
    expect((await readFile(join(out, 'model.glb'))).subarray(0, 4).toString()).toBe('glTF');
    // A zip whose first entry is the usda root layer.
    expect((await readFile(join(out, 'model.usdz'))).subarray(30, 40).toString()).toBe('model.usda');
    const refused = await run(process.execPath, [...cli, join(dir, 'part.stl'), '--export', 'obj']).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(refused).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--export takes glb and/or usdz'),
    });
  });

  it('exits non-zero with the typed error code for a bad model, and 2 for bad options', async () => {
    await writeFile(join(dir, 'notes.txt'), 'not a model');
    const bad = await run(process.execPath, [
      ...cli,
      join(dir, 'notes.txt'),
      '--out',
      join(dir, 'bad'),
    ]).catch((e: { code: number; stderr: string }) => e);
    expect(bad).toMatchObject({ code: 1 });
    expect((bad as { stderr: string }).stderr).toContain('unsupported_format');
    const usage = await run(process.execPath, [...cli, join(dir, 'part.stl'), '--video', 'forever']).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(usage).toMatchObject({ code: 2 });
    expect((usage as { stderr: string }).stderr).toContain('--video must look like 8s@30');
  });
});
