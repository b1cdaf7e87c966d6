import {
  ACESFilmicToneMapping,
  DirectionalLight,
  HemisphereLight,
  PMREMGenerator,
  Scene,
  SRGBColorSpace,
  Vector3,
  WebGLRenderer,
} from 'three';
import { RoomEnvironment } from 'three/examples/jsm/environments/RoomEnvironment.js';

/**
 * The most metal a material shows on a software GPU: lit by lights only (no reflections to mirror),
 * full metal renders black, so it keeps some of its diffuse colour.
 */
export const SOFTWARE_MAX_METALNESS = 0.45;

/** Whether this browser gives WebGL 2 at all (a canvas is tried once). */
export function hasWebGL(): boolean {
  try {
    return Boolean(document.createElement('canvas').getContext('webgl2'));
  } catch {
    return false;
  }
}

/** Whether the renderer draws on the CPU (SwiftShader, llvmpipe): headless browsers and GPU-less machines. */
function isSoftwareRenderer(renderer: WebGLRenderer): boolean {
  const gl = renderer.getContext();
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const name = info ? String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) : '';
  return /swiftshader|llvmpipe|software/i.test(name);
}

function keyLight(direction: Vector3): DirectionalLight {
  const light = new DirectionalLight(0xffffff, 1.6);
  light.position.copy(direction);
  return light;
}

/** A three.js view in an element: its renderer, its scene, and how the scene is lit. */
export interface ThreeStage {
  renderer: WebGLRenderer;
  scene: Scene;
  /** Drawn on the CPU: lit by plain lights, so metals are held to SOFTWARE_MAX_METALNESS. */
  software: boolean;
  /** Stops following the element's size and frees the GPU's share; the canvas leaves the element. */
  dispose: () => void;
}

/**
 * Puts a WebGL canvas in the element, filling it and following its size (`onResize` is told each
 * new size, the first at once). Reflections come from a prefiltered studio room; a CPU-emulated GPU
 * would freeze the page for many seconds building it, so there the scene is lit by plain lights.
 */
export function createThreeStage(
  host: HTMLElement,
  {
    onResize,
    preserveDrawingBuffer = false,
  }: { onResize?: (width: number, height: number) => void; preserveDrawingBuffer?: boolean } = {},
): ThreeStage {
  const renderer = new WebGLRenderer({ antialias: true, alpha: true, preserveDrawingBuffer });
  renderer.setPixelRatio(Math.min(2, window.devicePixelRatio));
  renderer.outputColorSpace = SRGBColorSpace;
  renderer.toneMapping = ACESFilmicToneMapping;
  renderer.domElement.style.display = 'block';
  renderer.domElement.style.width = '100%';
  renderer.domElement.style.height = '100%';
  host.appendChild(renderer.domElement);

  const scene = new Scene();
  const pmrem = new PMREMGenerator(renderer);
  const software = isSoftwareRenderer(renderer);
  if (software)
    scene.add(
      new HemisphereLight(0xffffff, 0x8a8580, 2.2),
      keyLight(new Vector3(1, 2, 1.5)),
      keyLight(new Vector3(-1.5, 1, -1)),
    );
  else scene.environment = pmrem.fromScene(new RoomEnvironment(), 0.04).texture;

  const resize = () => {
    const { width, height } = host.getBoundingClientRect();
    renderer.setSize(Math.max(1, width), Math.max(1, height), false);
    onResize?.(Math.max(1, width), Math.max(1, height));
  };
  const observer = new ResizeObserver(resize);
  observer.observe(host);
  resize();

  return {
    renderer,
    scene,
    software,
    dispose: () => {
      observer.disconnect();
      scene.environment?.dispose();
      pmrem.dispose();
      renderer.dispose();
      renderer.domElement.remove();
    },
  };
}
