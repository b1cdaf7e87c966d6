import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import { BAKED_IBL, type BakedEnvironment } from '../src/engines/studio/page/baked-environment';
import { GEM_LIGHT, createMaterial, shadingOf } from '../src/engines/studio/page/materials';
import { buildScene, materialForPart } from '../src/scene/build-scene';
import { MATERIALS } from '../src/scene/materials';
import type { PbrMaterial } from '../src/types';

const cubes: BakedEnvironment = { radiance: new THREE.Texture(), irradiance: new THREE.Texture() };
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
    expect(shadingOf({ ...MATERIALS['brushed-steel'], roughness: 0.19 })).toBe('baked-ibl');
    expect(shadingOf({ ...MATERIALS['brushed-steel'], roughness: 0.2 })).toBe('standard');
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

  it('draws a diamond opaque, tinted and traced through its facets, always single-sided', () => {
    const size = 0.006;
    const diamond = createMaterial(MATERIALS.gem, open, null, size, cubes);
    expect(diamond.ior).toBeCloseTo(2.42, 6);
    expect(diamond.transmission).toBe(0);
    expect(diamond.thickness).toBeCloseTo(size * 1.5, 12);
    expect(diamond.specularIntensity).toBe(1);
    expect(diamond.color.toArray()).toEqual([0, 0, 0]);
    expect(diamond.side).toBe(THREE.FrontSide);
    expect(diamond.customProgramCacheKey()).toBe('atelier-gem');
    const shader = compile(diamond);
    expect((shader.uniforms.gemTint!.value as THREE.Color).toArray()).toEqual([0.98, 0.99, 1.0]);
    expect(shader.uniforms.gemIor!.value).toBeCloseTo(2.42, 6);
    expect(shader.fragmentShader).toContain('uniform vec3 gemTint;\nuniform float gemIor;\nvoid main() {');
    // The stone's light is added just before the fragment is written.
    expect(shader.fragmentShader).toContain(`${GEM_LIGHT}\n#include <opaque_fragment>`);
  });

  it('lets glass and low-index stones transmit the backdrop', () => {
    const glass: PbrMaterial = { baseColor: [0.9, 0.95, 1], metalness: 0, roughness: 0, transmission: 0.8 };
    const m = createMaterial(glass, closed, null, 0.05, cubes);
    expect(m.ior).toBe(1.5);
    expect(m.transmission).toBe(0.8);
    const quartz = createMaterial({ ...glass, transmission: 1, ior: 1.54 }, closed, null, 0.05, cubes);
    expect(quartz.transmission).toBe(1);
    expect(shadingOf(glass)).toBe('gem');
  });

  it("gives a ring's band and stone the finishes their category asks for", () => {
    const scene = buildScene('ring');
    const band = materialForPart(scene, { name: 'band', material: 'band' });
    const stone = materialForPart(scene, { name: 'diamond', material: 'stone' });
    expect(shadingOf(band)).toBe('baked-ibl');
    expect(band.metalness).toBe(1);
    expect(shadingOf(stone)).toBe('gem');
    expect(createMaterial(stone, open, null, 0.006, cubes).transmission).toBe(0);
  });
});
