import * as THREE from 'three';
import type { PbrMaterial } from '../../../types';
import { BAKED_IBL, BAKED_MAX_ROUGHNESS, type BakedEnvironment } from './baked-environment';
import type { PagePart } from './protocol';

// Light leaving a cut stone, traced through an ideal brilliant: refract in through the facet,
// reflect off two pavilion facets (41° below the girdle, on the side the ray heads to), refract
// out, and look the environment up there — once per colour with a slightly different index
// (dispersion, the stone's "fire"). Each facet sends the eye to a different part of the studio,
// bright softbox or dark flag: the contrast that makes a diamond read as one.
export const GEM_LIGHT = `
  #ifdef USE_ENVMAP
  {
    vec3 up = normalize((viewMatrix * vec4(0.0, 1.0, 0.0, 0.0)).xyz);
    float facing = saturate(dot(normal, geometryViewDir));
    float fresnel = 0.17 + 0.83 * pow(1.0 - facing, 5.0);
    // Which way this facet faces around the stone's axis: the real ray's path depends on where
    // it enters, which a single fragment cannot trace, so the facet's bearing picks the pavilion
    // facets it meets instead. Facets then see different parts of the studio, as in a real stone.
    vec3 side = normalize(normal - dot(normal, up) * up + vec3(1e-4));
    vec3 east = normalize(cross(up, vec3(0.0, 0.0, 1.0)) + vec3(1e-4));
    float bearing = atan(dot(side, cross(up, east)), dot(side, east));
    vec3 fire = vec3(0.0);
    float obstruction = 0.0;
    for (int c = 0; c < 3; c++) {
      float ior = gemIor * (0.985 + 0.015 * float(c));
      vec3 ray = refract(-geometryViewDir, normal, 1.0 / ior);
      for (int bounce = 0; bounce < 2; bounce++) {
        float turn = bearing * (3.0 + 2.0 * float(bounce));
        vec3 heading = normalize(ray - dot(ray, up) * up + vec3(1e-4));
        heading = heading * cos(turn) + cross(up, heading) * sin(turn);
        float tilt = 0.72 + 0.2 * sin(bearing * 8.0 + float(bounce));
        ray = reflect(ray, normalize(heading * cos(tilt) - up * sin(tilt)));
      }
      vec3 out_ = refract(ray, -normal, ior);
      if (dot(out_, out_) < 1e-6) out_ = reflect(ray, -normal);
      vec3 world = inverseTransformDirection(out_, viewMatrix);
      fire[c] = textureCubeUV(envMap, envMapRotation * world, 0.0)[c];
      // Rays leaving back towards the lens meet the camera and the photographer, not the studio:
      // the dark "obstruction" that gives a photographed brilliant its black facets. Taken from
      // the middle colour's ray alone, so it darkens a facet without splitting its colours.
      if (c == 1) obstruction = smoothstep(0.45, 0.8, dot(normalize(out_), geometryViewDir));
    }
    fire *= 1.0 - 0.92 * obstruction;
    // A photographed stone is lit by a few small, bright sources and dark surroundings, not by an
    // even white sweep: deepen the mid-tones so facets split into bright and dark.
    fire = pow(fire, vec3(1.8));
    outgoingLight += (1.0 - fresnel) * gemTint * fire * envMapIntensity;
  }
  #endif`;

/**
 * How a finish is lit: a gem (any transmission) by the stone trace, a smooth finish by the baked
 * cubes, anything rougher by three.js's own CubeUV lookups.
 */
export function shadingOf(spec: PbrMaterial): 'gem' | 'baked-ibl' | 'standard' {
  if ((spec.transmission ?? 0) > 0) return 'gem';
  return spec.roughness < BAKED_MAX_ROUGHNESS ? 'baked-ibl' : 'standard';
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
  if (shading === 'gem') {
    m.ior = spec.ior ?? 1.5;
    // Screen-space transmission shows the backdrop through the stone, which suits glass and
    // low-index stones. A diamond-like stone (index ≥ 2) returns nearly all light by total
    // internal reflection instead: it is drawn opaque with the light bounced inside it.
    m.transmission = m.ior < 2 ? (spec.transmission ?? 1) : 0;
    m.thickness = size * 1.5;
    m.specularIntensity = 1;
    m.color.setRGB(0, 0, 0);
    const tint = new THREE.Color().setRGB(
      spec.baseColor[0],
      spec.baseColor[1],
      spec.baseColor[2],
      THREE.LinearSRGBColorSpace,
    );
    m.onBeforeCompile = (shader) => {
      shader.uniforms.gemTint = { value: tint };
      shader.uniforms.gemIor = { value: m.ior };
      shader.fragmentShader = shader.fragmentShader
        .replace('void main() {', 'uniform vec3 gemTint;\nuniform float gemIor;\nvoid main() {')
        .replace('#include <opaque_fragment>', GEM_LIGHT + '\n#include <opaque_fragment>');
    };
    m.customProgramCacheKey = () => 'atelier-gem';
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
