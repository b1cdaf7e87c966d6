import * as THREE from 'three';
import { fullscreenCamera, quad } from './fullscreen';
import type { Region } from './protocol';

interface YuvPass {
  width: number;
  height: number;
  target: THREE.WebGLRenderTarget;
  scene: THREE.Scene;
  material: THREE.ShaderMaterial;
}

/**
 * Reads frames back into one reused buffer: the canvas as RGBA rows bottom-up as WebGL reads them,
 * or a texture as yuv420p converted on the GPU.
 */
export class FrameReader {
  private pixels = new Uint8Array(0);
  private yuv: YuvPass | undefined;

  constructor(private readonly renderer: THREE.WebGLRenderer) {}

  private buffer(bytes: number): Uint8Array {
    // A buffer transferred to the frame relay is detached (length 0): a new one is made.
    if (this.pixels.length !== bytes) this.pixels = new Uint8Array(bytes);
    return this.pixels;
  }

  /** The drawn frame as RGBA, rows bottom-up, as WebGL reads them. */
  rgba(width: number, height: number): Uint8Array {
    const gl = this.renderer.getContext();
    const pixels = this.buffer(width * height * 4);
    gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
    return pixels;
  }

  /**
   * `region` of `source` (a texture `sourceHeight` rows high, rows bottom-up) as yuv420p (BT.601
   * limited range, top row first): each RGBA8 texel of a (W/4 × 1.5H) target carries four
   * consecutive bytes of the Y, then U, then V planes, so one readPixels returns the whole region.
   * Needs a region width divisible by 8, a height divisible by 4 and an even corner.
   */
  yuv420(source: THREE.Texture, sourceHeight: number, region: Region): Uint8Array {
    const { width, height } = region;
    if (!this.yuv || this.yuv.width !== width || this.yuv.height !== height) {
      this.dispose();
      this.yuv = yuvPass(width, height);
    }
    const { renderer } = this;
    const { uniforms } = this.yuv.material;
    uniforms.source!.value = source;
    uniforms.origin!.value.set(region.x, sourceHeight - 1 - region.y);
    renderer.setRenderTarget(this.yuv.target);
    renderer.render(this.yuv.scene, fullscreenCamera);
    const pixels = this.buffer((width * height * 3) / 2);
    renderer.readRenderTargetPixels(this.yuv.target, 0, 0, width / 4, (height * 3) / 2, pixels);
    renderer.setRenderTarget(null);
    return pixels;
  }

  /** Frees the YUV pass (the next yuv420 call builds it again). */
  dispose(): void {
    if (!this.yuv) return;
    this.yuv.target.dispose();
    this.yuv.material.dispose();
    this.yuv = undefined;
  }
}

function yuvPass(width: number, height: number): YuvPass {
  const target = new THREE.WebGLRenderTarget(width / 4, (height * 3) / 2, {
    depthBuffer: false,
    type: THREE.UnsignedByteType,
  });
  const material = new THREE.ShaderMaterial({
    uniforms: {
      source: { value: null },
      size: { value: new THREE.Vector2(width, height) },
      origin: { value: new THREE.Vector2() },
    },
    depthTest: false,
    depthWrite: false,
    vertexShader: `void main() { gl_Position = vec4(position.xy, 0.0, 1.0); }`,
    fragmentShader: `uniform sampler2D source; uniform vec2 size; uniform vec2 origin;
          // origin: the region's top-left pixel in the source's bottom-up rows.
          vec3 px(int x, int y) { return texelFetch(source, ivec2(int(origin.x) + x, int(origin.y) - y), 0).rgb; }
          float luma(vec3 c) { return 16.0 + 219.0 * dot(c, vec3(0.299, 0.587, 0.114)); }
          float chroma(int cx, int cy, bool v) {
            vec3 c = 0.25 * (px(2 * cx, 2 * cy) + px(2 * cx + 1, 2 * cy) + px(2 * cx, 2 * cy + 1) + px(2 * cx + 1, 2 * cy + 1));
            return 128.0 + 224.0 * (v ? dot(c, vec3(0.5, -0.418688, -0.081312)) : dot(c, vec3(-0.168736, -0.331264, 0.5)));
          }
          void main() {
            int w = int(size.x), h = int(size.y);
            int col = int(gl_FragCoord.x), row = int(gl_FragCoord.y);
            vec4 bytes;
            if (row < h) {
              bytes = vec4(luma(px(4 * col, row)), luma(px(4 * col + 1, row)), luma(px(4 * col + 2, row)), luma(px(4 * col + 3, row)));
            } else {
              bool v = row >= h + h / 4;
              int k = (row - h - (v ? h / 4 : 0)) * w + 4 * col;
              int cy = k / (w / 2), cx = k - cy * (w / 2);
              bytes = vec4(chroma(cx, cy, v), chroma(cx + 1, cy, v), chroma(cx + 2, cy, v), chroma(cx + 3, cy, v));
            }
            gl_FragColor = floor(clamp(bytes, 0.0, 255.0) + 0.5) / 255.0;
          }`,
  });
  const scene = new THREE.Scene();
  const pass = new THREE.Mesh(quad, material);
  pass.frustumCulled = false;
  scene.add(pass);
  return { width, height, target, scene, material };
}
