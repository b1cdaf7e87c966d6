import { describe, expect, it } from 'vitest';
import {
  buildScene,
  fileSafe,
  findCategory,
  finishOf,
  frameCamera,
  listCategories,
  material,
  materialForPart,
  RenderError,
  type Model,
} from '../src/index';
import { samplePositions } from '../src/scene/framing';
import { normalizeModel } from '../src/import/normalize';
import { boxMesh, ringMesh, type TestMesh } from './fixtures/shapes';

const modelOf = (mesh: TestMesh): Model =>
  normalizeModel(
    {
      parts: [{ name: 'part', positions: mesh.positions, indices: mesh.indices }],
      unitScale: 0.001,
      conventionalUp: 'z',
    },
    { format: 'stl', fileName: 'x.stl' },
  );

describe('categories', () => {
  it('offers the jewellery, product and mechanical presets with names and descriptions', () => {
    const categories = listCategories();
    expect(categories.map((c) => c.id)).toEqual([
      'product',
      'mechanical',
      'ring',
      'pendant',
      'earrings',
      'bracelet',
    ]);
    for (const category of categories) {
      expect(category.name.length).toBeGreaterThan(2);
      expect(category.description.length).toBeGreaterThan(20);
      const scene = buildScene(category.id);
      expect(scene.cameras.length).toBeGreaterThanOrEqual(6);
      expect(scene.categoryId).toBe(category.id);
    }
    expect(buildScene('ring').materials['*']).toEqual(material('yellow-gold'));
    expect(buildScene('bracelet').materials['*']).toEqual(material('rose-gold'));
  });

  it('offers finishes that fit each category, its own default among them', () => {
    const finishes = (id: string) => findCategory(id)!.finishes;
    expect(finishes('product')).toEqual(
      expect.arrayContaining(['plastic-matte', 'plastic-glossy', 'painted-metal', 'rubber', 'glass', 'wood']),
    );
    expect(finishes('product')).not.toContain('yellow-gold');
    expect(finishes('ring')).toEqual(expect.arrayContaining(['yellow-gold', 'platinum', 'gem', 'ruby']));
    expect(finishes('ring')).not.toContain('plastic-glossy');
    for (const { id } of listCategories()) {
      const preset = buildScene(id).materials['*']!;
      expect(finishOf(preset, finishes(id))).toBeDefined();
    }
  });

  it('replaces a slot’s material whole: matte plastic over the glossy preset keeps no clear coat', () => {
    expect(buildScene('product').materials['*']!.clearcoat).toBe(1);
    const matte = buildScene('product', { materials: { '*': material('plastic-matte') } });
    expect(matte.materials['*']).toEqual(material('plastic-matte'));
  });

  it('knows a finish by its surface, whatever the colour of a colourable one', () => {
    const red = { ...material('plastic-matte'), baseColor: [0.8, 0.05, 0.05] as [number, number, number] };
    expect(finishOf(red, ['plastic-matte', 'rubber'])).toBe('plastic-matte');
    expect(finishOf(red, ['rubber'])).toBeUndefined();
    // Gold is gold by its colour: a blue "gold" is no finish.
    const blueGold = { ...material('yellow-gold'), baseColor: [0.1, 0.2, 0.9] as [number, number, number] };
    expect(finishOf(blueGold, ['yellow-gold', 'white-gold'])).toBeUndefined();
    expect(finishOf({ ...material('plastic-glossy'), roughness: 0.5 }, ['plastic-glossy'])).toBeUndefined();
  });

  it('names cameras as readable slugs, the words of the file names', () => {
    for (const { id } of listCategories())
      for (const camera of buildScene(id).cameras) expect(fileSafe(camera.name)).toBe(camera.name);
    expect(buildScene('ring').cameras.map((c) => c.name)).toContain('three-quarter-back');
  });
});

describe('buildScene', () => {
  it('lays project then studio settings over the preset, later winning, arrays replaced', () => {
    const scene = buildScene(
      'ring',
      { materials: { '*': material('platinum') }, resolution: { width: 800, height: 600 }, margin: 0.2 },
      { resolution: { width: 1024 }, cameras: [{ name: 'only', azimuth: 10, elevation: 5, fov: 25 }] },
    );
    expect(scene.materials['*']).toEqual(material('platinum'));
    expect(scene.resolution).toEqual({ width: 1024, height: 600 });
    expect(scene.margin).toBe(0.2);
    expect(scene.cameras).toEqual([{ name: 'only', azimuth: 10, elevation: 5, fov: 25 }]);
    // Untouched fields keep the preset; the preset itself is not mutated.
    expect(scene.environment.preset).toBe('jewellery');
    expect(buildScene('ring').resolution).toEqual({ width: 2048, height: 2048 });
  });

  it('replaces the background when its kind changes', () => {
    expect(buildScene('product', { background: { kind: 'color', color: '#112233' } }).background).toEqual({
      kind: 'color',
      color: '#112233',
    });
    expect(buildScene('product', { background: { kind: 'transparent' } }).background).toEqual({
      kind: 'transparent',
    });
  });

  it('refuses unknown categories and out-of-range settings with invalid_scene', () => {
    const code = (fn: () => unknown): string | undefined => {
      try {
        fn();
      } catch (error) {
        expect(error).toBeInstanceOf(RenderError);
        return (error as RenderError).code;
      }
      return undefined;
    };
    expect(code(() => buildScene('spaceship'))).toBe('invalid_scene');
    expect(code(() => buildScene('ring', { resolution: { width: 99999 } }))).toBe('invalid_scene');
    expect(code(() => buildScene('ring', { margin: 0.6 }))).toBe('invalid_scene');
    expect(code(() => buildScene('ring', { background: { kind: 'color', color: 'red' } }))).toBe(
      'invalid_scene',
    );
    expect(code(() => buildScene('ring', { cameras: [] }))).toBe('invalid_scene');
  });
});

describe('materialForPart', () => {
  it('resolves exact slots, then name rules, then the default', () => {
    const scene = buildScene('ring', { materials: { prongs: material('platinum') } });
    expect(materialForPart(scene, { name: 'prongs', material: 'prongs' })).toEqual(material('platinum'));
    expect(materialForPart(scene, { name: 'Center Diamond', material: 'Center Diamond' })).toEqual(
      material('gem'),
    );
    expect(materialForPart(scene, { name: 'band', material: 'band', sourceColor: [0, 0, 1] })).toEqual(
      material('yellow-gold'),
    );
  });

  it('paints parts in their own colours where the category keeps source colours', () => {
    const scene = buildScene('product');
    const red = materialForPart(scene, { name: 'shell', material: 'shell', sourceColor: [0.8, 0.05, 0.05] });
    expect(red.baseColor).toEqual([0.8, 0.05, 0.05]);
    expect(red.metalness).toBe(0);
    // A neutral CAD default grey keeps the category finish.
    expect(
      materialForPart(scene, { name: 'shell', material: 'shell', sourceColor: [0.3, 0.3, 0.3] }),
    ).toEqual(scene.materials['*']);
    // A red part of a brushed steel model is painted, not brushed.
    const gear = materialForPart(buildScene('mechanical'), {
      name: 'gear',
      material: 'gear',
      sourceColor: [0.8, 0.05, 0.05],
    });
    expect(gear.anisotropy).toBeUndefined();
  });

  it('brushes a brushed finish saved before finishes carried their brushing', () => {
    const { anisotropy, ...saved } = material('brushed-aluminium');
    expect(anisotropy).toBe(0.8);
    expect(finishOf(saved, ['brushed-aluminium', 'brushed-steel'])).toBe('brushed-aluminium');
    const scene = buildScene('product', { materials: { '*': saved } });
    expect(materialForPart(scene, { name: 'case', material: 'case' })).toEqual(material('brushed-aluminium'));
    // Brushing that is no finish's is not one.
    expect(finishOf({ ...saved, anisotropy: 0.3 }, ['brushed-aluminium'])).toBeUndefined();
  });
});

describe('frameCamera', () => {
  const shapes: Array<[string, TestMesh]> = [
    ['ring', ringMesh({ segments: 48, sides: 12 })],
    ['long bar', boxMesh([400, 8, 8])],
    ['disc', ringMesh({ segments: 48, sides: 12, radius: 30, band: 0.5, thickness: 29 })],
    ['flat tile', boxMesh([100, 100, 1])],
    ['grain', boxMesh([0.05, 0.03, 0.02])],
  ];

  it.each(shapes)('fits a %s to the margin on its tightest side, centred', (_, mesh) => {
    const model = modelOf(mesh);
    for (const [azimuth, elevation, aspect] of [
      [35, 22, 1],
      [0, 5, 16 / 9],
      [90, 60, 0.75],
    ] as const) {
      const pose = frameCamera(model, { name: 'x', azimuth, elevation, fov: 30 }, aspect, 0.12);
      const tanY = Math.tan((15 * Math.PI) / 180);
      const tanX = tanY * aspect;
      let minX = Infinity,
        maxX = -Infinity,
        minY = Infinity,
        maxY = -Infinity;
      for (const part of model.parts) {
        for (let i = 0; i < part.positions.length; i += 3) {
          const q = [0, 1, 2].map((a) => part.positions[i + a]! - pose.position[a]!);
          const dot = (v: number[]): number => q[0]! * v[0]! + q[1]! * v[1]! + q[2]! * v[2]!;
          const depth = -dot(pose.back);
          expect(depth).toBeGreaterThan(pose.near);
          const x = dot(pose.right) / (depth * tanX),
            y = dot(pose.up) / (depth * tanY);
          minX = Math.min(minX, x);
          maxX = Math.max(maxX, x);
          minY = Math.min(minY, y);
          maxY = Math.max(maxY, y);
        }
      }
      const limit = 1 - 2 * 0.12;
      expect(Math.max(-minX, maxX, -minY, maxY)).toBeLessThanOrEqual(limit + 1e-3);
      // Tight: the limiting axis reaches the margin; centred on both axes.
      expect(Math.max((maxX - minX) / 2, (maxY - minY) / 2)).toBeCloseTo(limit, 2);
      expect(Math.abs(minX + maxX)).toBeLessThan(0.02);
      expect(Math.abs(minY + maxY)).toBeLessThan(0.02);
    }
  });

  it("moves the camera closer by the angle's zoom, keeping the target and the direction", () => {
    const model = modelOf(ringMesh({ segments: 48, sides: 12 }));
    const angle = { name: 'x', azimuth: 30, elevation: 20, fov: 30 };
    const fitted = frameCamera(model, angle, 1, 0.1);
    const closer = frameCamera(model, { ...angle, zoom: 2 }, 1, 0.1);
    const distance = (pose: typeof fitted) =>
      Math.hypot(...pose.position.map((value, axis) => value - pose.target[axis]!));
    expect(closer.target).toEqual(fitted.target);
    expect(closer.back).toEqual(fitted.back);
    expect(distance(closer)).toBeCloseTo(distance(fitted) / 2, 6);
  });

  it('frames from sampled points and bounds alone as it does from the whole model', () => {
    const model = modelOf(boxMesh([40, 12, 8]));
    const angle = { name: 'x', azimuth: -50, elevation: 35, fov: 28 };
    const points = samplePositions(model.parts.map((part) => part.positions));
    expect(frameCamera({ bounds: model.bounds }, angle, 4 / 5, 0.12, { points })).toEqual(
      frameCamera(model, angle, 4 / 5, 0.12),
    );
  });

  it('keeps a long bar seen end-on inside the frame', () => {
    const model = modelOf(boxMesh([300, 5, 5]));
    const pose = frameCamera(model, { name: 'end', azimuth: 90, elevation: 5, fov: 30 }, 16 / 9, 0.12);
    const tanY = Math.tan((15 * Math.PI) / 180);
    const points = model.parts[0]!.positions;
    for (let i = 0; i < points.length; i += 3) {
      const q = [0, 1, 2].map((a) => points[i + a]! - pose.position[a]!);
      const dot = (v: number[]): number => q[0]! * v[0]! + q[1]! * v[1]! + q[2]! * v[2]!;
      const depth = -dot(pose.back);
      expect(depth).toBeGreaterThan(0);
      expect(Math.abs(dot(pose.right) / (depth * tanY * (16 / 9)))).toBeLessThanOrEqual(0.761);
      expect(Math.abs(dot(pose.up) / (depth * tanY))).toBeLessThanOrEqual(0.761);
    }
  });
});
