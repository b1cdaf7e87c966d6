import * as THREE from 'three';
import { isStone, MAX_STONE_PLANES, STONE_BOUNCES, STONE_DISPERSION } from '../../../scene/stones';
import type { PbrMaterial } from '../../../types';
import { BAKED_IBL, BAKED_MAX_ROUGHNESS, type BakedEnvironment } from './baked-environment';
import type { PagePart } from './protocol';

/** What a transmissive part's trace needs: its planes and the two environments it may look up. */
export interface GemLighting {
  planes: Float32Array;
  studio: THREE.Texture;
  stones: THREE.Texture;
}

// Light inside a transmissive part, traced as the draft engine traces it (see traceStone there):
// refracted in, then from plane to plane of the part (its facets, see stonePlanes), partly or
// (past the critical angle) totally reflected at each, and partly refracted out once per colour
// with its own index (dispersion, a gem's fire). The trace runs in object space, where the planes
// are; a stone looks its light up in the stone light set, which stands around the lens (view
// space), anything else in the studio (world space).
const GEM_VERTEX_PARS = `
  varying vec3 vStonePosition;
  varying vec3 vStoneNormal;
  varying vec3 vStoneEye;
  varying mat3 vStoneToView;
  void main() {`;
const GEM_VERTEX = `#include <project_vertex>
  vStonePosition = transformed;
  vStoneNormal = objectNormal;
  vStoneEye = (inverse(modelViewMatrix) * vec4(0.0, 0.0, 0.0, 1.0)).xyz;
  vStoneToView = mat3(modelViewMatrix);`;

export const GEM_FRAGMENT_PARS = `
  uniform vec3 gemTint;
  uniform float gemIor;
  uniform vec4 gemPlanes[${MAX_STONE_PLANES}];
  uniform int gemPlaneCount;
  uniform sampler2D gemLight;
  varying vec3 vStonePosition;
  varying vec3 vStoneNormal;
  varying vec3 vStoneEye;
  varying mat3 vStoneToView;
  #ifdef ENVMAP_TYPE_CUBE_UV
  vec3 gemLookup(const in vec3 direction) {
    vec3 view = normalize(vStoneToView * direction);
    #ifdef GEM_VIEW_LIGHT
      return textureCubeUV(gemLight, view, 0.0).rgb;
    #else
      return textureCubeUV(gemLight, envMapRotation * inverseTransformDirection(view, viewMatrix), 0.0).rgb;
    #endif
  }
  #endif
  void main() {`;

export const GEM_LIGHT = `
  #ifdef ENVMAP_TYPE_CUBE_UV
  {
    vec3 eye = normalize(vStoneEye - vStonePosition);
    vec3 n = normalize(vStoneNormal);
    if (dot(n, eye) < 0.0) n = -n;
    float facing = saturate(dot(n, eye));
    float f0 = pow2((gemIor - 1.0) / (gemIor + 1.0));
    float surface = f0 + (1.0 - f0) * pow(1.0 - facing, 5.0);
    vec3 inner = vec3(0.0);
    vec3 p = vStonePosition;
    vec3 ray = refract(-eye, n, 1.0 / gemIor);
    float weight = 1.0 - surface;
    for (int bounce = 0; bounce < ${STONE_BOUNCES}; bounce++) {
      float nearest = 1e20;
      vec3 exitNormal = vec3(0.0);
      for (int i = 0; i < ${MAX_STONE_PLANES}; i++) {
        if (i >= gemPlaneCount) break;
        vec4 plane = gemPlanes[i];
        float towards = dot(plane.xyz, ray);
        if (towards > 1e-6) {
          float t = (plane.w - dot(plane.xyz, p)) / towards;
          if (t < nearest) {
            nearest = t;
            exitNormal = plane.xyz;
          }
        }
      }
      if (nearest > 1e19) break;
      p += ray * max(nearest, 0.0);
      float cosI = dot(exitNormal, ray);
      float sin2 = gemIor * gemIor * (1.0 - cosI * cosI);
      if (sin2 < 1.0) {
        float reflectance = f0 + (1.0 - f0) * pow(1.0 - sqrt(1.0 - sin2), 5.0);
        for (int c = 0; c < 3; c++) {
          vec3 leaving = refract(ray, -exitNormal, gemIor * (1.0 + float(c - 1) * ${STONE_DISPERSION}));
          if (dot(leaving, leaving) > 0.0) inner[c] += weight * (1.0 - reflectance) * gemLookup(leaving)[c];
        }
        weight *= reflectance;
      }
      ray = reflect(ray, exitNormal);
    }
    vec3 light = gemTint * inner;
    #ifdef GEM_VIEW_LIGHT
      // A stone's own surface mirrors the stone light set too (the built-in mirror is off).
      light += surface * gemLookup(reflect(-eye, n));
    #endif
    outgoingLight += light * envMapIntensity;
  }
  #endif`;

/**
 * How a finish is lit: a gem (any transmission) by the stone trace, a smooth finish by the baked
 * cubes, anything rougher or brushed by three.js's own CubeUV lookups.
 */
export function shadingOf(spec: PbrMaterial): 'gem' | 'baked-ibl' | 'standard' {
  if ((spec.transmission ?? 0) > 0) return 'gem';
  // The baked cubes have no anisotropic lookup: brushed metal keeps three.js's.
  return spec.roughness < BAKED_MAX_ROUGHNESS && !spec.anisotropy ? 'baked-ibl' : 'standard';
}

/**
 * The physical material of one part. `size` is the part's largest extent (a gem's thickness for
 * transmission); `cubes` are the job's baked environment, which smooth finishes sample.
 */
export function createMaterial(
  spec: PbrMaterial,
  part: Pick<PagePart, 'colors' | 'closed'>,
  texture: THREE.Texture | null,
  size: number,
  cubes: BakedEnvironment,
  gem?: GemLighting,
): THREE.MeshPhysicalMaterial {
  const shading = shadingOf(spec);
  const m = new THREE.MeshPhysicalMaterial({
    metalness: spec.metalness,
    roughness: spec.roughness,
    clearcoat: spec.clearcoat ?? 0,
    clearcoatRoughness: 0.03,
    vertexColors: part.colors !== undefined,
    map: texture,
    // Open or inconsistently wound CAD tessellations show both sides; gems stay single-sided for
    // correct refraction.
    side: shading === 'gem' || part.closed ? THREE.FrontSide : THREE.DoubleSide,
  });
  m.color.setRGB(spec.baseColor[0], spec.baseColor[1], spec.baseColor[2], THREE.LinearSRGBColorSpace);
  if (spec.anisotropy) {
    // The part's tangents run along the brushing (see brushingTangents); reflections stretch
    // across it, as three.js stretches them along the anisotropy direction turned a quarter turn.
    m.anisotropy = spec.anisotropy;
    m.anisotropyRotation = Math.PI / 2;
  }
  if (shading === 'gem') {
    m.ior = spec.ior ?? 1.5;
    const stone = isStone(spec);
    // Screen-space transmission shows the backdrop through glass and clear plastics. A stone
    // returns nearly all light by total internal reflection instead: it is drawn opaque with the
    // light traced inside it, and its surface mirrors the stone light set, not the studio.
    m.transmission = stone ? 0 : (spec.transmission ?? 1);
    m.thickness = size * 1.5;
    m.specularIntensity = stone ? 0 : 1;
    m.color.setRGB(0, 0, 0);
    const tint = new THREE.Color().setRGB(
      spec.baseColor[0],
      spec.baseColor[1],
      spec.baseColor[2],
      THREE.LinearSRGBColorSpace,
    );
    const planes = new Float32Array(MAX_STONE_PLANES * 4);
    if (gem) planes.set(gem.planes.subarray(0, planes.length));
    m.onBeforeCompile = (shader) => {
      shader.uniforms.gemTint = { value: tint };
      shader.uniforms.gemIor = { value: m.ior };
      shader.uniforms.gemPlanes = { value: planes };
      shader.uniforms.gemPlaneCount = { value: gem ? Math.min(gem.planes.length / 4, MAX_STONE_PLANES) : 0 };
      shader.uniforms.gemLight = { value: gem ? (stone ? gem.stones : gem.studio) : null };
      shader.vertexShader = shader.vertexShader
        .replace('void main() {', GEM_VERTEX_PARS)
        .replace('#include <project_vertex>', GEM_VERTEX);
      shader.fragmentShader = shader.fragmentShader
        .replace('void main() {', (stone ? '#define GEM_VIEW_LIGHT\n' : '') + GEM_FRAGMENT_PARS)
        .replace('#include <opaque_fragment>', GEM_LIGHT + '\n#include <opaque_fragment>');
    };
    m.customProgramCacheKey = () => (stone ? 'atelier-stone' : 'atelier-glass');
  } else if (shading === 'baked-ibl') {
    m.onBeforeCompile = (shader) => {
      shader.uniforms.envRadiance = { value: cubes.radiance };
      shader.uniforms.envIrradiance = { value: cubes.irradiance };
      shader.fragmentShader = shader.fragmentShader.replace(
        '#include <envmap_physical_pars_fragment>',
        BAKED_IBL,
      );
    };
    m.customProgramCacheKey = () => 'atelier-baked-ibl';
  }
  return m;
}
