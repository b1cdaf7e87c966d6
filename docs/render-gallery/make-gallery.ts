// Regenerates the sample stills of docs/render-gallery.md: `npx tsx docs/render-gallery/make-gallery.ts`
// (optionally followed by engine and category names to redo only those, e.g. `studio mechanical`).
// `make-gallery.ts --cycles-scenes <dir>` writes instead, per category, what the Blender Cycles
// reference (cycles-reference.py) renders: the imported model, its materials, cameras and light set.
// Each sample model is written as an OBJ file (millimetres, named parts) and goes through the real
// importer, so the pictures show what a user's upload would get from each engine.
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import type { BufferGeometry } from 'three';
import { CylinderGeometry, ExtrudeGeometry, LatheGeometry, Path, Shape, TorusGeometry, Vector2 } from 'three';
import { mergeGeometries } from 'three/addons/utils/BufferGeometryUtils.js';
import {
  buildScene,
  createEngine,
  importModel,
  type Engine,
  type EngineName,
  type Model,
  type Scene,
} from '../../packages/render/src/index';
import {
  domeShade,
  studioCards,
  STUDIO_LOOKS,
  type Card,
} from '../../packages/render/src/engines/studio/page/lighting';
import { materialForPart } from '../../packages/render/src/scene/build-scene';
import { material, type MaterialName } from '../../packages/render/src/scene/materials';
import { frameCamera, framingPoints } from '../../packages/render/src/scene/framing';
import { stillCameras } from '../../packages/render/src/scene/outputs';

const HERE = dirname(fileURLToPath(import.meta.url));
const SIZE = 512;
/** What a shop's grid or a search result shows: every engine's hero still, downscaled. */
const THUMB = 128;
/** The ring in each colourway (metal, then stone), as a project's colourways would render it. */
const COLOURWAYS: Array<{ id: string; band: MaterialName; diamond: MaterialName }> = [
  { id: 'yellow-gold', band: 'yellow-gold', diamond: 'gem' },
  { id: 'white-gold-sapphire', band: 'white-gold', diamond: 'sapphire' },
  { id: 'rose-gold-ruby', band: 'rose-gold', diamond: 'ruby' },
];

interface Part {
  name: string;
  geometry: BufferGeometry;
}

/** A round brilliant, simplified: table, crown and pavilion facets with flat normals (mm). */
function brilliant(girdle: number): BufferGeometry {
  const crown = new CylinderGeometry(girdle * 0.56, girdle, girdle * 0.32, 16, 1).translate(
    0,
    girdle * 0.16,
    0,
  );
  const pavilion = new CylinderGeometry(girdle, 0.001, girdle * 0.86, 16, 1, true).translate(
    0,
    -girdle * 0.43,
    0,
  );
  // Non-indexed with per-face normals: every facet flat, as a cut stone is.
  const stone = mergeGeometries([crown.toNonIndexed(), pavilion.toNonIndexed()]);
  stone.computeVertexNormals();
  return stone;
}

const SAMPLES: Record<string, () => Part[]> = {
  ring: () => [
    { name: 'band', geometry: new TorusGeometry(9.5, 1.3, 32, 192).scale(1, 1, 1.4) },
    { name: 'diamond', geometry: brilliant(3.2).translate(0, 11.9, 0) },
  ],
  pendant: () => {
    // A heart with a bevelled edge, a bail on top and a stone in the middle.
    const heart = new Shape();
    heart.moveTo(0, -9);
    heart.bezierCurveTo(-2, -6, -10, -2, -10, 3.5);
    heart.bezierCurveTo(-10, 8, -5, 10, 0, 6);
    heart.bezierCurveTo(5, 10, 10, 8, 10, 3.5);
    heart.bezierCurveTo(10, -2, 2, -6, 0, -9);
    const body = new ExtrudeGeometry(heart, {
      depth: 1.6,
      bevelEnabled: true,
      bevelThickness: 0.8,
      bevelSize: 0.8,
      bevelSegments: 6,
      curveSegments: 48,
    });
    return [
      { name: 'heart', geometry: body.translate(0, 0, -0.8) },
      {
        name: 'bail',
        geometry: new TorusGeometry(1.8, 0.45, 16, 48).rotateY(Math.PI / 2).translate(0, 9.6, 0),
      },
      {
        name: 'stone',
        geometry: brilliant(2)
          .rotateX(Math.PI / 2)
          .translate(0, 2, 1.9),
      },
    ];
  },
  earrings: () =>
    [-7, 7].flatMap((x, i) => [
      { name: `hoop-${i}`, geometry: new TorusGeometry(5.5, 0.7, 24, 128).translate(x, 6.2, 0) },
      {
        name: `gem-${i}`,
        geometry: brilliant(1.4)
          .rotateX(Math.PI / 2)
          .translate(x, 0.9, 0.9),
      },
    ]),
  bracelet: () => [
    { name: 'bangle', geometry: new TorusGeometry(32, 2.4, 32, 256).scale(1, 1, 0.6).rotateX(Math.PI / 2.6) },
  ],
  product: () => {
    // A cosmetics bottle: body and cap turned on a lathe.
    const profile = [
      [0, 0],
      [17, 0],
      [19, 2],
      [19, 60],
      [16, 68],
      [7, 71],
      [7, 76],
    ].map(([r, y]) => new Vector2(r, y));
    const cap = [
      [0, 75],
      [9, 75],
      [9.5, 76],
      [9.5, 96],
      [8.5, 98],
      [0, 98],
    ].map(([r, y]) => new Vector2(r, y));
    return [
      { name: 'body', geometry: new LatheGeometry(profile, 96) },
      { name: 'cap', geometry: new LatheGeometry(cap, 96) },
    ];
  },
  mechanical: () => {
    // A spur gear with a keyed bore, extruded and chamfered.
    const teeth = 18;
    const gear = new Shape();
    for (let i = 0; i <= teeth * 4; i++) {
      const a = (i / (teeth * 4)) * Math.PI * 2;
      const r = i % 4 === 1 || i % 4 === 2 ? 30 : 25.5;
      if (i === 0) gear.moveTo(r * Math.cos(a), r * Math.sin(a));
      else gear.lineTo(r * Math.cos(a), r * Math.sin(a));
    }
    const bore = new Path();
    bore.absarc(0, 0, 8, 0, Math.PI * 2, true);
    gear.holes.push(bore);
    const body = new ExtrudeGeometry(gear, {
      depth: 10,
      bevelEnabled: true,
      bevelThickness: 0.8,
      bevelSize: 0.8,
      bevelSegments: 2,
      curveSegments: 48,
    });
    return [{ name: 'gear', geometry: body.rotateX(-Math.PI / 2) }];
  },
};

/** OBJ with one object per part and exact vertex normals. */
function toObj(parts: Part[]): string {
  const lines: string[] = ['# Atelier render gallery sample, millimetres'];
  let base = 1;
  for (const { name, geometry } of parts) {
    const g = geometry.index ? geometry.toNonIndexed() : geometry;
    if (!g.getAttribute('normal')) g.computeVertexNormals();
    const p = g.getAttribute('position');
    const n = g.getAttribute('normal');
    lines.push(`o ${name}`);
    for (let i = 0; i < p.count; i++)
      lines.push(`v ${p.getX(i).toFixed(4)} ${p.getY(i).toFixed(4)} ${p.getZ(i).toFixed(4)}`);
    for (let i = 0; i < n.count; i++)
      lines.push(`vn ${n.getX(i).toFixed(5)} ${n.getY(i).toFixed(5)} ${n.getZ(i).toFixed(5)}`);
    for (let i = 0; i < p.count; i += 3)
      lines.push(
        `f ${base + i}//${base + i} ${base + i + 1}//${base + i + 1} ${base + i + 2}//${base + i + 2}`,
      );
    base += p.count;
  }
  return lines.join('\n');
}

/** The imported model as OBJ: metres, +y up, resting on y = 0, one object per part, exact normals. */
function modelObj(model: Model): string {
  const lines: string[] = ['# Atelier render gallery sample as imported (metres, +y up)'];
  let base = 1;
  for (const part of model.parts) {
    lines.push(`o ${part.name}`);
    const { positions: p, normals: n, indices } = part;
    for (let v = 0; v < p.length; v += 3) lines.push(`v ${p[v]} ${p[v + 1]} ${p[v + 2]}`);
    for (let v = 0; v < n.length; v += 3) lines.push(`vn ${n[v]} ${n[v + 1]} ${n[v + 2]}`);
    for (let t = 0; t < indices.length; t += 3) {
      const [a, b, c] = [indices[t]! + base, indices[t + 1]! + base, indices[t + 2]! + base];
      lines.push(`f ${a}//${a} ${b}//${b} ${c}//${c}`);
    }
    base += p.length / 3;
  }
  return lines.join('\n');
}

/** The studio engine's light set for a preset: its cards (softboxes, graduated cards, black flags), and its dome's grey by height. */
function studioLights(preset: Scene['environment']['preset']): {
  cards: Card[];
  dome: Array<[number, number]>;
} {
  const look = STUDIO_LOOKS[preset];
  // Denser near the horizon, where the dome's shade changes fastest.
  const dome = Array.from({ length: 25 }, (_, i): [number, number] => {
    const s = i / 12 - 1;
    const y = Math.sign(s) * s * s;
    return [y, domeShade(look, y)];
  });
  return { cards: studioCards(look), dome };
}

/** Per category, the scene cycles-reference.py renders: the model as OBJ and a JSON of the rest. */
async function writeCyclesScenes(target: string, categories: string[], work: string): Promise<void> {
  await mkdir(target, { recursive: true });
  for (const category of categories) {
    const file = join(work, `${category}.obj`);
    await writeFile(file, toObj(SAMPLES[category]!()));
    const model = await importModel(file);
    const scene = buildScene(category, { resolution: { width: SIZE, height: SIZE } });
    await writeFile(join(target, `${category}.obj`), modelObj(model));
    const points = framingPoints(model);
    const cameras = stillCameras(scene, 2).map((angle) => {
      const pose = frameCamera(model, angle, 1, scene.margin, { points });
      return { name: angle.name, azimuth: angle.azimuth + scene.environment.rotation, ...pose };
    });
    const description = {
      size: SIZE,
      background: scene.background,
      environment: { intensity: scene.environment.intensity },
      ...studioLights(scene.environment.preset),
      exposure: scene.exposure ?? 1,
      groundShadow: scene.groundShadow,
      materials: Object.fromEntries(model.parts.map((part) => [part.name, materialForPart(scene, part)])),
      cameras,
    };
    await writeFile(join(target, `${category}.json`), JSON.stringify(description, null, 1));
    console.log(`cycles scene ${category}: ${model.triangleCount} triangles`);
  }
}

/** A two-colour checker of 16 px squares, the way image editors show transparency (in colour, so white and black shadows both show). */
function checker(size: number): Buffer {
  const pixels = Buffer.alloc(size * size * 3);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const odd = (Math.floor(x / 16) + Math.floor(y / 16)) % 2;
      pixels.set(odd ? [0x2a, 0x9d, 0x8f] : [0xe9, 0xc4, 0x6a], (y * size + x) * 3);
    }
  return pixels;
}

/** A transparent still laid over the checker, so its alpha (the ring, and the shadow as partial alpha) can be seen. */
async function overChecker(still: string, target: string): Promise<void> {
  await sharp(checker(SIZE), { raw: { width: SIZE, height: SIZE, channels: 3 } })
    .composite([{ input: still }])
    .png({ compressionLevel: 9 })
    .toFile(target);
}

/** Per category, the hero still of each engine (Cycles' where it was rendered) at THUMB px, side by side. */
async function thumbnailStrip(category: string): Promise<void> {
  const sources = ['draft', 'studio', 'cycles']
    .map((engine) => join(HERE, `${category}-1-${engine}.png`))
    .filter((path) => existsSync(path));
  const tiles = await Promise.all(
    sources.map((path) => sharp(path).resize(THUMB, THUMB, { kernel: 'lanczos3' }).png().toBuffer()),
  );
  const gap = 8;
  await sharp({
    create: { width: tiles.length * (THUMB + gap) - gap, height: THUMB, channels: 3, background: '#ffffff' },
  })
    .composite(tiles.map((input, i) => ({ input, left: i * (THUMB + gap), top: 0 })))
    .png({ compressionLevel: 9 })
    .toFile(join(HERE, `${category}-${THUMB}.png`));
}

/** The ring's extras with one engine: a transparent still over a checker, and its colourway set. */
async function ringExtras(engine: Engine, work: string): Promise<void> {
  const file = join(work, 'ring.obj');
  await writeFile(file, toObj(SAMPLES.ring!()));
  const model = await importModel(file);
  const resolution = { width: SIZE, height: SIZE };
  const transparent = await engine.render({
    model,
    scene: buildScene('ring', { resolution, background: { kind: 'transparent' } }),
    stills: 1,
    outDir: join(work, engine.name, 'transparent'),
  });
  await overChecker(transparent.stills[0]!, join(HERE, `transparent-ring-${engine.name}.png`));
  for (const colourway of COLOURWAYS) {
    const materials = { band: material(colourway.band), diamond: material(colourway.diamond) };
    const result = await engine.render({
      model,
      scene: buildScene('ring', { resolution: { width: 256, height: 256 }, materials }),
      stills: 1,
      outDir: join(work, engine.name, colourway.id),
    });
    await copyFile(result.stills[0]!, join(HERE, `colourway-ring-${colourway.id}-${engine.name}.png`));
  }
}

async function main(): Promise<void> {
  const cyclesAt = process.argv.indexOf('--cycles-scenes');
  if (cyclesAt >= 0) {
    const work = await mkdtemp(join(tmpdir(), 'atelier-gallery-'));
    try {
      await writeCyclesScenes(process.argv[cyclesAt + 1]!, Object.keys(SAMPLES), work);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
    return;
  }
  const work = await mkdtemp(join(tmpdir(), 'atelier-gallery-'));
  const only = process.argv.slice(2);
  const picked = <T extends string>(all: T[]): T[] =>
    all.some((a) => only.includes(a)) ? all.filter((a) => only.includes(a)) : all;
  const engines = picked<EngineName>(['draft', 'studio']);
  const categories = picked(Object.keys(SAMPLES));
  try {
    for (const name of engines) {
      const engine = await createEngine(name);
      try {
        for (const category of categories) {
          const build = SAMPLES[category]!;
          const file = join(work, `${category}.obj`);
          await writeFile(file, toObj(build()));
          const model = await importModel(file);
          const scene = buildScene(category, { resolution: { width: SIZE, height: SIZE } });
          const outDir = join(work, name, category);
          const result = await engine.render({ model, scene, stills: 2, outDir });
          for (const [i, still] of result.stills.entries())
            await copyFile(still, join(HERE, `${category}-${i + 1}-${name}.png`));
          console.log(
            `${name} ${category}: ${model.triangleCount} triangles, ${result.seconds.toFixed(1)} s`,
          );
        }
        if (categories.includes('ring')) await ringExtras(engine, work);
      } finally {
        await engine.close();
      }
    }
    for (const category of categories) await thumbnailStrip(category);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

await main();
