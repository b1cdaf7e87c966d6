import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import { BAKED_IBL, type BakedEnvironment } from '../src/engines/studio/page/baked-environment';
import {
  GEM_FRAGMENT_PARS,
  GEM_LIGHT,
  createMaterial,
  shadingOf,
} from '../src/engines/studio/page/materials';
import { brushingTangents } from '../src/engines/studio/page/model';
import { buildScene, materialForPart } from '../src/scene/build-scene';
import { MATERIALS } from '../src/scene/materials';
import { isStone, MAX_STONE_PLANES } from '../src/scene/stones';
import type { PbrMaterial } from '../src/types';

const cubes: BakedEnvironment = { radiance: new THREE.Texture(), irradiance: new THREE.Texture() };
const studio = new THREE.Texture();
const stones = new THREE.Texture();
const open = { closed: false };
const closed = { closed: true };

/** Runs the material's shader hook on a stand-in of three.js's physical fragment shader. */
function compile(m: THREE.Material): { uniforms: Record<string, THREE.IUniform>; fragmentShader: string } {
  const shader = {
    uniforms: {} as Record<string, THREE.IUniform>,
    vertexShader: '',
    fragmentShader: '#include <envmap_physical_pars_fragment>\nvoid main() {\n#include <opaque_fragment>\n}',
  };
  m.onBeforeCompile(shader as unknown as THREE.WebGLProgramParametersWithUniforms, {} as THREE.WebGLRenderer);
  return shader;
}

describe('studio materials', () => {
  it('lights polished metals from the baked cubes and keeps their measured colour', () => {
    const gold = createMaterial(MATERIALS['yellow-gold'], closed, null, 0.02, cubes);
    expect([gold.metalness, gold.roughness, gold.clearcoat]).toEqual([1, 0.12, 0]);
    // Linear reflectance, unchanged by colour management.
    expect(gold.color.toArray()).toEqual([1.0, 0.66, 0.24]);
    expect(gold.side).toBe(THREE.FrontSide);
    expect(gold.customProgramCacheKey()).toBe('atelier-baked-ibl');
    const shader = compile(gold);
    expect(shader.uniforms.envRadiance!.value).toBe(cubes.radiance);
    expect(shader.uniforms.envIrradiance!.value).toBe(cubes.irradiance);
    expect(shader.fragmentShader).toContain(BAKED_IBL);
    expect(shader.fragmentShader).not.toContain('#include <envmap_physical_pars_fragment>');
  });

  it("leaves rough finishes to three.js's own environment lookups", () => {
    for (const name of ['brushed-steel', 'plastic-matte'] as const) {
      expect(shadingOf(MATERIALS[name])).toBe('standard');
      const m = createMaterial(MATERIALS[name], open, null, 0.02, cubes);
      expect(m.customProgramCacheKey()).not.toMatch(/^atelier-/);
      expect(compile(m).fragmentShader).toContain('#include <envmap_physical_pars_fragment>');
    }
    // The line sits at roughness 0.2: a hair below is baked.
    expect(shadingOf({ ...MATERIALS['plastic-matte'], roughness: 0.19 })).toBe('baked-ibl');
    expect(shadingOf({ ...MATERIALS['plastic-matte'], roughness: 0.2 })).toBe('standard');
  });

  it('draws open tessellations from both sides, closed ones single-sided, and source colours per vertex', () => {
    const plastic = MATERIALS['plastic-glossy'];
    expect(createMaterial(plastic, open, null, 1, cubes).side).toBe(THREE.DoubleSide);
    expect(createMaterial(plastic, closed, null, 1, cubes).side).toBe(THREE.FrontSide);
    const coated = createMaterial(plastic, { closed: true, colors: 0 }, null, 1, cubes);
    expect(coated.vertexColors).toBe(true);
    expect([coated.clearcoat, coated.clearcoatRoughness]).toEqual([1, 0.03]);
    const map = new THREE.Texture();
    expect(createMaterial(plastic, open, map, 1, cubes).map).toBe(map);
  });

  it('draws a diamond opaque, traced through its own planes and lit by the stone light set alone', () => {
    const size = 0.006;
    const planes = Float32Array.from([0, 1, 0, 0.002, 0, -1, 0, 0.003]);
    const diamond = createMaterial(MATERIALS.gem, open, null, size, cubes, { planes, studio, stones });
    expect(diamond.ior).toBeCloseTo(2.42, 6);
    expect(diamond.transmission).toBe(0);
    expect(diamond.thickness).toBeCloseTo(size * 1.5, 12);
    // Its surface mirrors the stone lights in the trace, not the studio through three.js.
    expect(diamond.specularIntensity).toBe(0);
    expect(diamond.color.toArray()).toEqual([0, 0, 0]);
    expect(diamond.side).toBe(THREE.FrontSide);
    expect(diamond.customProgramCacheKey()).toBe('atelier-stone');
    const shader = compile(diamond);
    expect((shader.uniforms.gemTint!.value as THREE.Color).toArray()).toEqual([0.98, 0.99, 1.0]);
    expect(shader.uniforms.gemIor!.value).toBeCloseTo(2.42, 6);
    expect(shader.uniforms.gemLight!.value).toBe(stones);
    expect(shader.uniforms.gemPlaneCount!.value).toBe(2);
    const uploaded = shader.uniforms.gemPlanes!.value as Float32Array;
    expect(uploaded).toHaveLength(MAX_STONE_PLANES * 4);
    expect([...uploaded.subarray(0, 8)]).toEqual([...planes]);
    expect(shader.fragmentShader).toContain(`#define GEM_VIEW_LIGHT\n${GEM_FRAGMENT_PARS}`);
    // The stone's light is added just before the fragment is written.
    expect(shader.fragmentShader).toContain(`${GEM_LIGHT}\n#include <opaque_fragment>`);
  });

  it('lets glass transmit the backdrop and traces it in the studio, not the stone lights', () => {
    const glass: PbrMaterial = { baseColor: [0.9, 0.95, 1], metalness: 0, roughness: 0, transmission: 0.8 };
    const m = createMaterial(glass, closed, null, 0.05, cubes, {
      planes: new Float32Array(0),
      studio,
      stones,
    });
    expect(m.ior).toBe(1.5);
    expect(m.transmission).toBe(0.8);
    expect(m.specularIntensity).toBe(1);
    expect(m.customProgramCacheKey()).toBe('atelier-glass');
    const shader = compile(m);
    expect(shader.uniforms.gemLight!.value).toBe(studio);
    expect(shader.fragmentShader).not.toContain('#define GEM_VIEW_LIGHT');
    expect(shadingOf(glass)).toBe('gem');
    // Emerald (1.58) is a stone; quartz glass (1.54) is not.
    expect(isStone(MATERIALS.emerald)).toBe(true);
    expect(isStone({ ...glass, transmission: 1, ior: 1.54 })).toBe(false);
  });

  it('brushes steel and aluminium around the vertical axis, reflections stretched across it', () => {
    for (const name of ['brushed-steel', 'brushed-aluminium'] as const) {
      const m = createMaterial(MATERIALS[name], closed, null, 0.05, cubes);
      expect(m.anisotropy).toBe(MATERIALS[name].anisotropy);
      expect(m.anisotropyRotation).toBeCloseTo(Math.PI / 2, 12);
      expect(shadingOf(MATERIALS[name])).toBe('standard');
    }
    // Even a smooth brushed finish keeps three.js's anisotropic lookups.
    expect(shadingOf({ ...MATERIALS['brushed-steel'], roughness: 0.1 })).toBe('standard');
    // A cylinder: tangents run around it on the side, and stay in the surface on the top face.
    const cylinder = new THREE.CylinderGeometry(1, 1, 1, 16);
    const tangents = brushingTangents(cylinder);
    const normal = cylinder.getAttribute('normal');
    const position = cylinder.getAttribute('position');
    for (let i = 0; i < position.count; i++) {
      const t = new THREE.Vector3().fromBufferAttribute(tangents, i);
      const n = new THREE.Vector3().fromBufferAttribute(normal, i);
      expect(t.length()).toBeCloseTo(1, 5);
      expect(t.dot(n)).toBeCloseTo(0, 5);
      const radial = new THREE.Vector3(position.getX(i), 0, position.getZ(i));
      if (radial.length() > 0.5) expect(t.dot(radial.normalize())).toBeCloseTo(0, 5);
    }
  });

  it("gives a ring's band and stone the finishes their category asks for", () => {
    const scene = buildScene('ring');
    const band = materialForPart(scene, { name: 'band', material: 'band' });
    const stone = materialForPart(scene, { name: 'diamond', material: 'stone' });
    expect(shadingOf(band)).toBe('baked-ibl');
    expect(band.metalness).toBe(1);
    expect(shadingOf(stone)).toBe('gem');
    expect(isStone(stone)).toBe(true);
    expect(createMaterial(stone, open, null, 0.006, cubes).transmission).toBe(0);
  });
});
