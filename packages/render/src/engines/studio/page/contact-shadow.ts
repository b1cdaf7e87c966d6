import * as THREE from 'three';
import type { Bounds } from '../../../types';
import { fullscreenCamera, quad } from './fullscreen';

// The wide penumbra is blurred at a quarter of the resolution: small kernels, no streaks.
const TIGHT_SIZE = 512;
const WIDE_SIZE = 128;

/** Where the shadow map lies and how soft it is, from the model's bounds (metres, resting on y = 0). */
export interface ShadowLayout {
  /** Half the side of the square ground patch, centred on the origin. */
  half: number;
  /** Height above the ground at which a surface stops casting. */
  falloff: number;
  /** The model's height (at least 1 µm), which lifts the patch a hair off the ground. */
  height: number;
  /** Blur radii in shadow-map pixels: the crisp contact line and the wide penumbra. */
  tightSigmaPx: number;
  wideSigmaPx: number;
}

export function contactShadowLayout(bounds: Bounds): ShadowLayout {
  const sizeX = bounds.max[0] - bounds.min[0];
  const sizeZ = bounds.max[2] - bounds.min[2];
  const height = Math.max(1e-6, bounds.max[1] - bounds.min[1]);
  const extent = Math.max(sizeX, sizeZ, height);
  const reach = Math.max(
    Math.abs(bounds.min[0]),
    Math.abs(bounds.max[0]),
    Math.abs(bounds.min[2]),
    Math.abs(bounds.max[2]),
  );
  const half = reach + extent * 0.35;
  const falloff = Math.max(height * 0.25, extent * 0.08);
  const unitsPerShadowMap = 2 * half;
  return {
    half,
    falloff,
    height,
    tightSigmaPx: Math.max(0.8, ((extent * 0.008) / unitsPerShadowMap) * TIGHT_SIZE),
    wideSigmaPx: Math.max(1, ((extent * 0.06) / unitsPerShadowMap) * WIDE_SIZE),
  };
}

/**
 * A Gaussian of `sigmaPx` as rounds of a separable 9-tap kernel: each round has sigma ≈ 1.6 × its
 * radius, rounds add up as √n, and as many rounds are taken as keep each radius within 1.5 px.
 */
export function blurRounds(sigmaPx: number): { rounds: number; radius: number } {
  const rounds = Math.max(1, Math.ceil((sigmaPx / 1.6 / 1.5) ** 2));
  return { rounds, radius: sigmaPx / 1.6 / Math.sqrt(rounds) };
}

/**
 * How far from the vertical axis the shadow of a model reaching `radius` from it can show: its
 * footprint widened by three of the wider blur's sigmas (past that the blurs leave under half a
 * level of 255 on the backdrop) and a texel of filtering, never past the patch's corners.
 */
export function shadowReach(bounds: Bounds, radius: number): number {
  return Math.min(radius + shadowBlur(bounds), contactShadowLayout(bounds).half * Math.SQRT2);
}

/**
 * How far past what casts it the shadow can show on the ground: three of the wider blur's sigmas
 * and a texel of filtering (see shadowReach).
 */
export function shadowBlur(bounds: Bounds): number {
  const layout = contactShadowLayout(bounds);
  const texel = (n: number): number => (2 * layout.half) / n;
  return Math.max(
    (3 * layout.tightSigmaPx + 1) * texel(TIGHT_SIZE),
    (3 * layout.wideSigmaPx + 1) * texel(WIDE_SIZE),
  );
}

/**
 * The shadow's opacity at a point of its ground patch (`uv` over the patch, 0..1, rows as the patch
 * mesh maps them): the crisp and wide blurs, capped, faded out towards the patch's edges (and zero
 * off the patch). Drawn by the patch mesh, and by the turntable's composite (turntable.ts).
 */
export const SHADOW_ALPHA_GLSL = `uniform sampler2D tight; uniform sampler2D wide;
  float shadowAlpha(vec2 uv) {
    vec2 edge = smoothstep(vec2(0.0), vec2(0.08), uv) * smoothstep(vec2(0.0), vec2(0.08), 1.0 - uv);
    float a = 0.55 * texture2D(tight, uv).r + 0.5 * texture2D(wide, uv).r;
    return clamp(a, 0.0, 0.82) * edge.x * edge.y;
  }`;

/** The ground patch that carries the shadow, and what a composite needs to draw it without the mesh. */
export interface ContactShadow {
  /** A child of the model, so it turns with it. */
  mesh: THREE.Mesh;
  /** The patch's blurred maps, as SHADOW_ALPHA_GLSL reads them. */
  tight: THREE.Texture;
  wide: THREE.Texture;
  /** Half the side of the square patch, in the mesh's own units. */
  half: number;
}

/** A soft contact shadow, rendered once per job from below the ground and blurred twice. */
export function buildContactShadow(
  renderer: THREE.WebGLRenderer,
  bounds: Bounds,
  disposables: Array<{ dispose(): void }>,
  subject: THREE.Object3D,
): ContactShadow {
  const { half, falloff, height, tightSigmaPx, wideSigmaPx } = contactShadowLayout(bounds);
  const make = (n: number): THREE.WebGLRenderTarget =>
    new THREE.WebGLRenderTarget(n, n, { type: THREE.HalfFloatType });
  const occlusion = make(TIGHT_SIZE);
  const ping = make(TIGHT_SIZE);
  const tight = make(TIGHT_SIZE);
  const widePing = make(WIDE_SIZE);
  const wide = make(WIDE_SIZE);
  disposables.push(occlusion, ping, tight, widePing, wide);

  const below = new THREE.OrthographicCamera(-half, half, half, -half, 0, falloff);
  below.rotation.x = Math.PI / 2; // looks up +y, image right = +x, image up = +z
  below.updateMatrixWorld();
  const heightMaterial = new THREE.ShaderMaterial({
    uniforms: { falloff: { value: falloff } },
    side: THREE.DoubleSide,
    vertexShader: `varying float vHeight;
        void main() { vec4 w = modelMatrix * vec4(position, 1.0); vHeight = w.y; gl_Position = projectionMatrix * viewMatrix * w; }`,
    fragmentShader: `uniform float falloff; varying float vHeight;
        void main() { float d = 1.0 - clamp(vHeight / falloff, 0.0, 1.0); gl_FragColor = vec4(d * d, 0.0, 0.0, 1.0); }`,
  });
  const shadowScene = new THREE.Scene();
  shadowScene.overrideMaterial = heightMaterial;
  const parent = subject.parent;
  shadowScene.add(subject);
  renderer.setRenderTarget(occlusion);
  renderer.setClearColor(0x000000, 1);
  renderer.clear();
  renderer.render(shadowScene, below);
  parent?.add(subject);
  heightMaterial.dispose();

  const blur = new THREE.ShaderMaterial({
    uniforms: { source: { value: null }, step: { value: new THREE.Vector2() } },
    depthTest: false,
    depthWrite: false,
    vertexShader: `varying vec2 vUv; void main() { vUv = uv; gl_Position = vec4(position.xy, 0.0, 1.0); }`,
    fragmentShader: `uniform sampler2D source; uniform vec2 step; varying vec2 vUv;
        void main() {
          float sum = texture2D(source, vUv).r * 0.2270270270;
          sum += (texture2D(source, vUv + step * 1.3846153846).r + texture2D(source, vUv - step * 1.3846153846).r) * 0.3162162162;
          sum += (texture2D(source, vUv + step * 3.2307692308).r + texture2D(source, vUv - step * 3.2307692308).r) * 0.0702702703;
          gl_FragColor = vec4(sum, 0.0, 0.0, 1.0);
        }`,
  });
  const pass = new THREE.Mesh(quad, blur);
  pass.frustumCulled = false;
  const passScene = new THREE.Scene();
  passScene.add(pass);
  const blurInto = (
    source: THREE.WebGLRenderTarget,
    pong: THREE.WebGLRenderTarget,
    target: THREE.WebGLRenderTarget,
    sigmaPx: number,
  ): void => {
    const { rounds, radius } = blurRounds(sigmaPx);
    const n = target.width;
    let from = source;
    for (let r = 0; r < rounds; r++) {
      blur.uniforms.source!.value = from.texture;
      blur.uniforms.step!.value.set(radius / n, 0);
      renderer.setRenderTarget(pong);
      renderer.render(passScene, fullscreenCamera);
      blur.uniforms.source!.value = pong.texture;
      blur.uniforms.step!.value.set(0, radius / n);
      renderer.setRenderTarget(target);
      renderer.render(passScene, fullscreenCamera);
      from = target;
    }
  };
  blurInto(occlusion, ping, tight, tightSigmaPx);
  blurInto(occlusion, widePing, wide, wideSigmaPx);
  blur.dispose();
  renderer.setRenderTarget(null);
  renderer.setClearColor(0x000000, 0);

  const groundMaterial = new THREE.ShaderMaterial({
    uniforms: { tight: { value: tight.texture }, wide: { value: wide.texture } },
    transparent: true,
    depthWrite: false,
    toneMapped: false,
    vertexShader: `varying vec2 vUv; void main() { vUv = vec2(uv.x, 1.0 - uv.y); gl_Position = projectionMatrix * modelViewMatrix * vec4(position, 1.0); }`,
    fragmentShader: `${SHADOW_ALPHA_GLSL} varying vec2 vUv;
        void main() { gl_FragColor = vec4(0.0, 0.0, 0.0, shadowAlpha(vUv)); }`,
  });
  const ground = new THREE.Mesh(new THREE.PlaneGeometry(2 * half, 2 * half), groundMaterial);
  ground.rotation.x = -Math.PI / 2;
  ground.position.y = -height * 1e-4;
  ground.renderOrder = 1;
  disposables.push(ground.geometry, groundMaterial);
  return { mesh: ground, tight: tight.texture, wide: wide.texture, half };
}
