import * as THREE from 'three';
import type { Bounds } from '../../../types';
import {
  contactShadowLayout,
  shadowBlur,
  shadowReach,
  SHADOW_ALPHA_GLSL,
  type ContactShadow,
} from './contact-shadow';
import { fullscreenCamera, quad } from './fullscreen';
import { FXAA_GLSL } from './fxaa';
import type { PageView, Region } from './protocol';
import type { FrameReader } from './readback';
import { aimCamera } from './view';

/** Directions around the turntable's axis at which its swept volume is projected. */
const SWEEP_STEPS = 256;

/**
 * The part of a turntable's frames that can change: the screen rectangle around the upright
 * cylinder that the model sweeps as it turns (`radius`: its farthest point from the turntable's
 * axis), widened to the reach of its ground shadow (the
 * backdrop beyond never changes), padded by two pixels and grown to whole 8 × 4 blocks, as
 * yuv420p packing needs. The whole frame when part of that cylinder is behind the camera.
 */
export function turntableRegion(
  bounds: Bounds,
  radius: number,
  view: PageView,
  groundShadow: boolean,
): Region {
  const camera = new THREE.PerspectiveCamera();
  aimCamera(camera, view);
  camera.updateMatrixWorld();
  const reach = groundShadow ? shadowReach(bounds, radius) : radius;
  // The chord between two sampled directions falls short of the circle by at most this much.
  const outer = reach / Math.cos(Math.PI / SWEEP_STEPS);
  const box = new THREE.Box2();
  const point = new THREE.Vector3();
  for (let i = 0; i < SWEEP_STEPS; i++) {
    const a = (2 * Math.PI * i) / SWEEP_STEPS;
    for (const y of [Math.min(bounds.min[1], 0) - 1e-4 * outer, bounds.max[1]]) {
      point.set(outer * Math.cos(a), y, outer * Math.sin(a)).applyMatrix4(camera.matrixWorldInverse);
      if (point.z >= -camera.near) return { x: 0, y: 0, width: view.width, height: view.height };
      point.applyMatrix4(camera.projectionMatrix);
      box.expandByPoint(
        new THREE.Vector2(((point.x + 1) / 2) * view.width, ((1 - point.y) / 2) * view.height),
      );
    }
  }
  const snap = (low: number, high: number, step: number, size: number): [number, number] => {
    const from = Math.max(0, Math.floor((low - 2) / step) * step);
    const to = Math.min(size, Math.ceil((high + 2) / step) * step);
    return to > from ? [from, to - from] : [0, size];
  };
  const [x, width] = snap(box.min.x, box.max.x, 8, view.width);
  const [y, height] = snap(box.min.y, box.max.y, 4, view.height);
  return { x, y, width, height };
}

/**
 * The screen rectangle that the model touches in one turntable frame: the bounds of its vertices
 * (`positions`: each part's xyz triples) turned by `view.modelRotation` and projected, padded by two
 * pixels (FXAA changes only pixels next to the model). The whole frame when a vertex is behind the
 * camera.
 */
export function modelFootprint(positions: readonly ArrayLike<number>[], view: PageView): Region {
  const screen = new TurnedBounds(view);
  for (const p of positions)
    for (let i = 0; i < p.length; i += 3)
      if (!screen.add(p[i]!, p[i + 1]!, p[i + 2]!))
        return { x: 0, y: 0, width: view.width, height: view.height };
  return screen.rect();
}

/**
 * The screen rectangle that the ground shadow of a model within `bounds` can touch in one
 * turntable frame: the ground rectangle under the bounds widened by the shadow's blur (shadowBlur,
 * within its patch), turned by `view.modelRotation` and projected, padded by two pixels. Past it and
 * the model's footprint a frame shows the backdrop alone. The whole frame when a corner is behind
 * the camera.
 */
export function shadowFootprint(bounds: Bounds, view: PageView): Region {
  const { half, height } = contactShadowLayout(bounds);
  const blur = shadowBlur(bounds);
  const screen = new TurnedBounds(view);
  for (const x of [Math.max(-half, bounds.min[0] - blur), Math.min(half, bounds.max[0] + blur)])
    for (const z of [Math.max(-half, bounds.min[2] - blur), Math.min(half, bounds.max[2] + blur)])
      // The patch lies a hair below the ground (contact-shadow.ts).
      for (const y of [0, -height * 1e-4])
        if (!screen.add(x, y, z)) return { x: 0, y: 0, width: view.width, height: view.height };
  return screen.rect();
}

/** The screen bounds of points of the model, turned about +y by the frame's rotation and projected. */
class TurnedBounds {
  private readonly e: number[];
  private readonly cos: number;
  private readonly sin: number;
  private minX = Infinity;
  private minY = Infinity;
  private maxX = -Infinity;
  private maxY = -Infinity;

  constructor(private readonly view: PageView) {
    this.e = projection(view).elements;
    this.cos = Math.cos(view.modelRotation);
    this.sin = Math.sin(view.modelRotation);
  }

  /** Takes in a point (before the turn); false, taking nothing, when it lies behind the camera. */
  add(px: number, y: number, pz: number): boolean {
    const { e, cos: c, sin: s } = this;
    // Turned about +y as Matrix4.makeRotationY turns it.
    const x = c * px + s * pz;
    const z = c * pz - s * px;
    const w = e[3]! * x + e[7]! * y + e[11]! * z + e[15]!;
    if (w <= this.view.near) return false;
    const u = (e[0]! * x + e[4]! * y + e[8]! * z + e[12]!) / w;
    const v = (e[1]! * x + e[5]! * y + e[9]! * z + e[13]!) / w;
    if (u < this.minX) this.minX = u;
    if (u > this.maxX) this.maxX = u;
    if (v < this.minY) this.minY = v;
    if (v > this.maxY) this.maxY = v;
    return true;
  }

  /** The image pixels around what was taken in, padded by two pixels; empty for no point. */
  rect(): Region {
    if (this.minX > this.maxX) return { x: 0, y: 0, width: 0, height: 0 };
    return pixelRect(this.view, this.minX, this.maxX, this.minY, this.maxY);
  }
}

/** The camera's projection × view matrix for `view`. */
function projection(view: PageView): THREE.Matrix4 {
  const camera = new THREE.PerspectiveCamera();
  aimCamera(camera, view);
  camera.updateMatrixWorld();
  return new THREE.Matrix4().multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse);
}

/** Image pixels (top row first) around normalised device x and y ranges, padded by two pixels. */
function pixelRect(view: PageView, minX: number, maxX: number, minY: number, maxY: number): Region {
  const x = Math.max(0, Math.floor(((minX + 1) / 2) * view.width) - 2);
  const y = Math.max(0, Math.floor(((1 - maxY) / 2) * view.height) - 2);
  const right = Math.min(view.width, Math.ceil(((maxX + 1) / 2) * view.width) + 2);
  const bottom = Math.min(view.height, Math.ceil(((1 - minY) / 2) * view.height) + 2);
  return { x, y, width: Math.max(0, right - x), height: Math.max(0, bottom - y) };
}

/** The smallest rectangle holding both, cut to `within`. */
function spanning(a: Region, b: Region, within: Region): Region {
  const x = Math.max(within.x, Math.min(a.x, b.x));
  const y = Math.max(within.y, Math.min(a.y, b.y));
  const right = Math.min(within.x + within.width, Math.max(a.x + a.width, b.x + b.width));
  const bottom = Math.min(within.y + within.height, Math.max(a.y + a.height, b.y + b.height));
  return { x, y, width: Math.max(0, right - x), height: Math.max(0, bottom - y) };
}

/**
 * Turntable frames drawn with only what turns in them redrawn: the backdrop does not change from
 * frame to frame, so it is drawn once per turntable; each frame draws the model alone into a
 * single-sampled texture (no canvas copy), and one pass lays it, its edges smoothed by FXAA
 * (fxaa.ts: about two fifths of what 4× MSAA costs SwiftShader), over the backdrop with the
 * ground shadow under it, looked up through the ground plane as the camera sees it (the patch
 * mesh turns with the model; its shadow maps are the mesh's own). That pass replaces the
 * backdrop's and the shadow's multisampled passes and the canvas copy; the frame
 * is then packed as yuv420p by the reader. The first frame is drawn and read whole; the others only
 * within `region` (turntableRegion), which Node lays over the first.
 *
 * The model, the shadow and the backdrop meet as the canvas blends them (display values, the
 * shadow darkening what is behind it, the model's smoothed coverage over both), so frames match
 * the canvas path but for rounding and the anti-aliasing (stills keep the canvas's 4× MSAA).
 */
export class TurntableFrames {
  private readonly model: THREE.WebGLRenderTarget;
  private readonly backdrop: THREE.WebGLRenderTarget;
  private readonly frame: THREE.WebGLRenderTarget;
  private readonly composite: THREE.ShaderMaterial;
  private readonly shadowComposite: THREE.ShaderMaterial | undefined;
  private readonly pass: THREE.Scene;
  /** The backdrop under the ground shadow alone, for where the model is not (see draw). */
  private readonly shadowPass: THREE.Scene | undefined;
  private readonly hidden: THREE.Object3D[];
  private readonly toUv = new THREE.Matrix3();
  /** What the model and its shadow touched in the frame before (modelFootprint, shadowFootprint). */
  private touched: { model: Region; shadow: Region } | undefined;

  constructor(
    private readonly renderer: THREE.WebGLRenderer,
    private readonly width: number,
    private readonly height: number,
    private readonly region: Region,
    private readonly bounds: Bounds,
    /** Every part's vertex positions (xyz), for the model's footprint in each frame. */
    private readonly positions: readonly ArrayLike<number>[],
    backdrop: THREE.Mesh,
    private readonly shadow: ContactShadow | undefined,
  ) {
    this.model = new THREE.WebGLRenderTarget(width, height, { type: THREE.UnsignedByteType });
    // Drawn as the canvas is (tone mapped, sRGB-encoded in the shaders) but kept in a plain RGBA8
    // texture: three.js does that for a target it takes for an XR framebuffer.
    this.model.texture.colorSpace = THREE.SRGBColorSpace;
    this.model.texture.internalFormat = 'RGBA8';
    (this.model as unknown as { isXRRenderTarget: boolean }).isXRRenderTarget = true;
    this.backdrop = new THREE.WebGLRenderTarget(width, height, { depthBuffer: false });
    this.frame = new THREE.WebGLRenderTarget(width, height, { depthBuffer: false });

    const backdropScene = new THREE.Scene();
    const backdropQuad = new THREE.Mesh(quad, backdrop.material);
    backdropQuad.frustumCulled = false;
    backdropScene.add(backdropQuad);
    renderer.setRenderTarget(this.backdrop);
    renderer.render(backdropScene, fullscreenCamera);
    renderer.setRenderTarget(null);

    const uniforms = {
      model: { value: this.model.texture },
      backdrop: { value: this.backdrop.texture },
      tight: { value: shadow?.tight ?? null },
      wide: { value: shadow?.wide ?? null },
      toUv: { value: this.toUv },
    };
    const compositing = (defines: Record<string, string>): THREE.ShaderMaterial =>
      new THREE.ShaderMaterial({
        defines,
        uniforms,
        depthTest: false,
        depthWrite: false,
        toneMapped: false,
        vertexShader: `void main() { gl_Position = vec4(position.xy, 0.0, 1.0); }`,
        fragmentShader: `uniform sampler2D model; uniform sampler2D backdrop; uniform mat3 toUv;
        #ifdef SHADOW
        ${SHADOW_ALPHA_GLSL}
        #endif
        #ifdef MODEL
        ${FXAA_GLSL}
        #endif
        void main() {
          ivec2 p = ivec2(gl_FragCoord.xy);
          vec3 back = texelFetch(backdrop, p, 0).rgb;
          #ifdef SHADOW
          // The pixel's point on the ground, in the patch's uv (homogeneous; behind the camera when w <= 0).
          vec3 g = toUv * vec3(gl_FragCoord.xy, 1.0);
          vec2 uv = g.xy / g.z;
          // Off the patch its edge fade is zero, so its two filtered lookups are skipped there.
          if (g.z > 0.0 && all(greaterThan(uv, vec2(0.0))) && all(lessThan(uv, vec2(1.0))))
            back *= 1.0 - shadowAlpha(uv);
          #endif
          #ifdef MODEL
          vec4 front = fxaa(model, p, dot(back, vec3(0.299, 0.587, 0.114)));
          gl_FragColor = vec4(front.rgb + (1.0 - front.a) * back, 1.0);
          #else
          // What the line above gives where the model and its neighbours are clear.
          gl_FragColor = vec4(back, 1.0);
          #endif
        }`,
      });
    const scene = (material: THREE.ShaderMaterial): THREE.Scene => {
      const mesh = new THREE.Mesh(quad, material);
      mesh.frustumCulled = false;
      return new THREE.Scene().add(mesh);
    };
    this.composite = compositing(shadow ? { SHADOW: '', MODEL: '' } : { MODEL: '' });
    this.pass = scene(this.composite);
    this.shadowComposite = shadow ? compositing({ SHADOW: '' }) : undefined;
    this.shadowPass = this.shadowComposite && scene(this.shadowComposite);

    this.hidden = [backdrop, ...(shadow ? [shadow.mesh] : [])];
    for (const object of this.hidden) object.visible = false;
  }

  /**
   * Draws `scene` from `camera` and returns the composited frame as yuv420p: the whole frame, or
   * only its region (as a yuv420p image of the region's size) when `whole` is false.
   */
  draw(
    scene: THREE.Scene,
    camera: THREE.Camera,
    view: PageView,
    reader: FrameReader,
    whole: boolean,
  ): Uint8Array {
    const { renderer, width, height } = this;
    const region = whole ? { x: 0, y: 0, width, height } : this.region;
    // Only what the model or its shadow touches now or touched in the frame before changes: past
    // that the model target stays clear and the frame shows the backdrop (the first frame is drawn
    // whole). Where only the shadow can be, the frame is drawn without FXAA's look at the model.
    const now = {
      model: modelFootprint(this.positions, view),
      shadow: this.shadow ? shadowFootprint(this.bounds, view) : { x: 0, y: 0, width: 0, height: 0 },
    };
    const before = this.touched ?? now;
    this.touched = now;
    const model = whole ? region : spanning(now.model, before.model, region);
    const shadow = whole ? undefined : spanning(now.shadow, before.shadow, region);
    const scissor = (target: THREE.WebGLRenderTarget, r: Region): void => {
      // Scissors count rows from the bottom.
      target.scissor.set(r.x, height - r.y - r.height, r.width, r.height);
      target.scissorTest = !whole;
    };
    scissor(this.model, model);
    renderer.setRenderTarget(this.model);
    renderer.render(scene, camera);
    if (this.shadow) this.groundToUv(camera, this.shadow);
    if (shadow && this.shadowPass && shadow.width > 0 && shadow.height > 0) {
      scissor(this.frame, shadow);
      renderer.setRenderTarget(this.frame);
      renderer.render(this.shadowPass, fullscreenCamera);
    }
    if (model.width > 0 && model.height > 0) {
      scissor(this.frame, model);
      renderer.setRenderTarget(this.frame);
      renderer.render(this.pass, fullscreenCamera);
    }
    renderer.setRenderTarget(null);
    return reader.yuv420(this.frame.texture, height, region);
  }

  /**
   * The homography from a pixel (GL window coordinates) to the shadow patch's uv: the inverse of
   * patch plane → clip space → pixels, followed by the patch mesh's own uv mapping.
   */
  private groundToUv(camera: THREE.Camera, shadow: ContactShadow): void {
    const e = new THREE.Matrix4()
      .multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse)
      .multiply(shadow.mesh.matrixWorld).elements;
    // The patch is the mesh's z = 0 plane: clip x, y and w from its x, y and 1.
    const planeToClip = new THREE.Matrix3().set(
      e[0]!,
      e[4]!,
      e[12]!,
      e[1]!,
      e[5]!,
      e[13]!,
      e[3]!,
      e[7]!,
      e[15]!,
    );
    const { width: w, height: h } = this;
    const clipToPixel = new THREE.Matrix3().set(w / 2, 0, w / 2, 0, h / 2, h / 2, 0, 0, 1);
    const pixelToPlane = clipToPixel.multiply(planeToClip).invert();
    // PlaneGeometry's uv, with rows flipped as the patch mesh reads its maps.
    const side = 2 * shadow.half;
    this.toUv.set(1 / side, 0, 0.5, 0, -1 / side, 0.5, 0, 0, 1).multiply(pixelToPlane);
  }

  /** Frees the targets and shows the backdrop and the shadow mesh again (stills draw them). */
  dispose(): void {
    for (const object of this.hidden) object.visible = true;
    this.model.dispose();
    this.backdrop.dispose();
    this.frame.dispose();
    this.composite.dispose();
    this.shadowComposite?.dispose();
  }
}
