import * as THREE from 'three';

// Sharpest CubeUV level the baked cube holds, and the mip the environment's roughest finishes need.
export const CUBE_UV_MIN_BAKED_MIP = 4;
/** Finishes at least this rough keep three.js's CubeUV lookups (their blur lives below the baked levels). */
export const BAKED_MAX_ROUGHNESS = 0.2;

export interface BakedEnvironment {
  radiance: THREE.Texture;
  irradiance: THREE.Texture;
}

/**
 * The pre-filtered environment re-sampled into cube textures: one mip level per CubeUV level
 * from the sharpest down to 16 px faces, and the fully blurred level for irradiance. SwiftShader
 * samples a cube in one native lookup, where three.js's CubeUV atlas costs two bilinear fetches
 * with face and atlas arithmetic each — for a polished metal, most of a frame's shading.
 */
export function bakeEnvironmentCubes(
  renderer: THREE.WebGLRenderer,
  environment: THREE.Texture,
  disposables: Array<{ dispose(): void }>,
): BakedEnvironment {
  const height = (environment.image as { height: number }).height;
  const maxMip = Math.log2(height) - 2;
  const material = new THREE.ShaderMaterial({
    side: THREE.BackSide,
    depthTest: false,
    depthWrite: false,
    // The defines three.js gives a material whose envMap is this CubeUV atlas.
    defines: {
      ENVMAP_TYPE_CUBE_UV: '',
      CUBEUV_TEXEL_WIDTH: 1 / (3 * Math.max(2 ** maxMip, 7 * 16)),
      CUBEUV_TEXEL_HEIGHT: 1 / height,
      CUBEUV_MAX_MIP: `${maxMip}.0`,
    },
    uniforms: { envMap: { value: environment }, mip: { value: 0 } },
    vertexShader: `varying vec3 vDirection;
        void main() { vDirection = position; gl_Position = projectionMatrix * modelViewMatrix * vec4(position, 1.0); }`,
    fragmentShader: `#include <common>
        uniform sampler2D envMap; uniform float mip; varying vec3 vDirection;
        #include <cube_uv_reflection_fragment>
        void main() {
          vec3 direction = normalize(vDirection);
          // A negative mip asks for the irradiance level (roughness 1).
          gl_FragColor = vec4(mip < 0.0 ? textureCubeUV(envMap, direction, 1.0).rgb : bilinearCubeUV(envMap, direction, mip), 1.0);
        }`,
  });
  const box = new THREE.Mesh(new THREE.BoxGeometry(2, 2, 2), material);
  const scene = new THREE.Scene();
  scene.add(box);
  const cube = (size: number, mipmaps: boolean): THREE.WebGLCubeRenderTarget => {
    const target = new THREE.WebGLCubeRenderTarget(size, {
      type: THREE.HalfFloatType,
      generateMipmaps: mipmaps,
      minFilter: mipmaps ? THREE.LinearMipmapLinearFilter : THREE.LinearFilter,
      depthBuffer: false,
    });
    disposables.push(target);
    return target;
  };
  const radiance = cube(2 ** maxMip, true);
  const camera = new THREE.CubeCamera(0.1, 10, radiance);
  // Level 0 first: rendering it regenerates every mip, which the levels below then overwrite.
  for (let level = 0; level <= maxMip - CUBE_UV_MIN_BAKED_MIP; level++) {
    material.uniforms.mip!.value = maxMip - level;
    camera.activeMipmapLevel = level;
    // three.js keeps the level-0 viewport for every mip level.
    radiance.viewport.set(0, 0, 2 ** (maxMip - level), 2 ** (maxMip - level));
    camera.update(renderer, scene);
  }
  radiance.viewport.set(0, 0, 2 ** maxMip, 2 ** maxMip);
  const irradiance = cube(16, false);
  material.uniforms.mip!.value = -1;
  camera.renderTarget = irradiance;
  camera.activeMipmapLevel = 0;
  camera.update(renderer, scene);
  box.geometry.dispose();
  material.dispose();
  return { radiance: radiance.texture, irradiance: irradiance.texture };
}

/** three.js's IBL lookups (envmap_physical_pars_fragment) on the baked cubes, same mip selection. */
export const BAKED_IBL = `
    uniform samplerCube envRadiance;
    uniform samplerCube envIrradiance;
    vec3 getIBLIrradiance(const in vec3 normal) {
      vec3 worldNormal = inverseTransformDirection(normal, viewMatrix);
      return PI * textureCube(envIrradiance, envMapRotation * worldNormal).rgb * envMapIntensity;
    }
    vec3 getIBLRadiance(const in vec3 viewDir, const in vec3 normal, const in float roughness) {
      vec3 reflectVec = normalize(mix(reflect(-viewDir, normal), normal, roughness * roughness));
      reflectVec = inverseTransformDirection(reflectVec, viewMatrix);
      float mip = clamp(roughnessToMip(roughness), ${CUBE_UV_MIN_BAKED_MIP}.0, CUBEUV_MAX_MIP);
      return textureLod(envRadiance, envMapRotation * reflectVec, CUBEUV_MAX_MIP - mip).rgb * envMapIntensity;
    }`;
