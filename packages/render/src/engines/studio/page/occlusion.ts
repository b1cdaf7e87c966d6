import type * as THREE from 'three';

// The baked per-vertex ambient occlusion (MeshPart.occlusion) applied the way three.js applies an
// aoMap — to the environment's diffuse and mirror light, not to direct lights — but read from a
// vertex attribute, so no uv layout is needed.
const OCCLUSION_VERTEX_PARS = 'attribute float occlusion;\nvarying float vOcclusion;\n';
const OCCLUSION_FRAGMENT = `
  {
    float ambientOcclusion = vOcclusion;
    reflectedLight.indirectDiffuse *= ambientOcclusion;
    #if defined( USE_CLEARCOAT )
      clearcoatSpecularIndirect *= ambientOcclusion;
    #endif
    #if defined( USE_ENVMAP ) && defined( STANDARD )
      float occlusionDotNV = saturate( dot( geometryNormal, geometryViewDir ) );
      reflectedLight.indirectSpecular *= computeSpecularOcclusion( occlusionDotNV, ambientOcclusion, material.roughness );
    #endif
  }
  #include <aomap_fragment>`;

/**
 * Makes `material` darken by the geometry's `occlusion` attribute, on top of whatever shader
 * changes it already has (gems, baked environment), and keeps its program apart in the cache.
 */
export function applyVertexOcclusion(material: THREE.Material): void {
  const previous = material.onBeforeCompile.bind(material);
  const previousKey = material.customProgramCacheKey.bind(material);
  material.onBeforeCompile = (shader, renderer) => {
    previous(shader, renderer);
    shader.vertexShader = shader.vertexShader
      .replace('void main() {', `${OCCLUSION_VERTEX_PARS}void main() {`)
      .replace('#include <begin_vertex>', '#include <begin_vertex>\n  vOcclusion = occlusion;');
    shader.fragmentShader = shader.fragmentShader
      .replace('void main() {', 'varying float vOcclusion;\nvoid main() {')
      .replace('#include <aomap_fragment>', OCCLUSION_FRAGMENT);
  };
  material.customProgramCacheKey = () => `${previousKey()}+vertex-occlusion`;
}
