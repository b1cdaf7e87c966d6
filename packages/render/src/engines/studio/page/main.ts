import * as THREE from 'three';
import { buildBackdrop } from './backdrop';
import { bakeEnvironmentCubes } from './baked-environment';
import { buildContactShadow, type ContactShadow } from './contact-shadow';
import { FrameSocket, relayTransport, type FrameTransport } from './frame-socket';
import { isStone } from '../../../scene/stones';
import type { Bounds } from '../../../types';
import { buildEnvironment, buildStoneEnvironment } from './lighting';
import { buildPart, type PartLevels } from './model';
import type { PageView, StudioPageApi } from './protocol';
import { FrameReader } from './readback';
import { TurntableFrames } from './turntable';
import { aimCamera, indexFor, turntableAngle } from './view';

/**
 * The studio page's entry, bundled with the rest of this folder and imported by the page (three.js
 * comes from the page's import map): sets up a three.js renderer and exposes `globalThis.atelierStudio`.
 */
export function installStudioPage(options: { relay?: string } = {}): void {
  const canvas = document.createElement('canvas');
  document.body.appendChild(canvas);
  const renderer = new THREE.WebGLRenderer({
    canvas,
    antialias: true,
    alpha: true,
    preserveDrawingBuffer: false,
    powerPreference: 'high-performance',
  });
  renderer.setPixelRatio(1);
  renderer.outputColorSpace = THREE.SRGBColorSpace;
  renderer.toneMapping = THREE.ACESFilmicToneMapping;
  renderer.setClearColor(0x000000, 0);
  const gl = renderer.getContext() as WebGL2RenderingContext;
  const pmrem = new THREE.PMREMGenerator(renderer);
  const socketUrl = location.href.replace(/^http/, 'ws').replace('/page/', '/frames/');
  const frames = new FrameSocket(openTransport(socketUrl, options.relay));
  const reader = new FrameReader(renderer);
  const camera = new THREE.PerspectiveCamera();
  let stoneLight: THREE.Texture | undefined;
  let job:
    | {
        scene: THREE.Scene;
        model: THREE.Group;
        backdrop?: THREE.Mesh;
        shadow?: ContactShadow;
        disposables: Array<{ dispose(): void }>;
        triangles: number;
        levels: PartLevels[];
        bounds: Bounds;
      }
    | undefined;

  /** Poses the camera, the model and the light rig for `view`, at the detail its size resolves. */
  function pose(view: PageView): NonNullable<typeof job> {
    if (!job) throw new Error('no model loaded');
    aimCamera(camera, view);
    job.model.rotation.y = view.modelRotation;
    const size = Math.min(view.width, view.height);
    for (const level of job.levels) {
      const index = indexFor(level, size);
      if (level.geometry.index !== index) level.geometry.setIndex(index);
    }
    job.scene.environmentRotation.set(0, view.environmentRotation, 0);
    return job;
  }

  /** Draws `view` on the canvas. */
  function draw(view: PageView): void {
    if (canvas.width !== view.width || canvas.height !== view.height)
      renderer.setSize(view.width, view.height, false);
    renderer.render(pose(view).scene, camera);
  }

  const api: StudioPageApi = {
    async load(spec) {
      await frames.opened;
      api.unload();
      frames.reset();
      const response = await fetch(spec.url);
      if (!response.ok) throw new Error(`model download failed: ${response.status}`);
      const blob = await response.arrayBuffer();
      const disposables: Array<{ dispose(): void }> = [];
      const scene = new THREE.Scene();
      const model = new THREE.Group();
      const size = Math.max(...spec.bounds.max.map((v, i) => v - spec.bounds.min[i]!));
      let triangles = 0;
      const levels: PartLevels[] = [];
      const environment = buildEnvironment(pmrem, spec.environment.preset);
      disposables.push(environment);
      scene.environment = environment;
      const cubes = bakeEnvironmentCubes(renderer, environment, disposables);
      // Gem materials see the stone light set instead of the studio: the same for every job, so
      // it is built the first time a part is a stone and kept for the page's life.
      if (spec.parts.some((part) => isStone(part.material))) stoneLight ??= buildStoneEnvironment(pmrem);
      const stones = stoneLight ?? environment;
      for (const part of spec.parts) {
        const built = buildPart(blob, part, size, cubes, { studio: environment, stones }, disposables);
        model.add(built.mesh);
        levels.push(built.levels);
        triangles += part.indexCount / 3;
      }
      scene.add(model);
      const shadow = spec.groundShadow
        ? buildContactShadow(renderer, spec.bounds, disposables, model)
        : undefined;
      if (shadow) model.add(shadow.mesh);
      scene.environmentIntensity = spec.environment.intensity;
      renderer.toneMappingExposure = spec.exposure;
      job = { scene, model, shadow, disposables, triangles, levels, bounds: spec.bounds };
      api.background(spec.background);
      // Compile every shader now, so the first frame's time is not spent on it.
      await renderer.compileAsync(scene, camera);
      return { triangles, maxSamples: gl.getParameter(gl.MAX_SAMPLES) as number };
    },

    background(background) {
      if (!job) throw new Error('no model loaded');
      if (job.backdrop) {
        job.scene.remove(job.backdrop);
        (job.backdrop.material as THREE.Material).dispose();
        job.backdrop = undefined;
      }
      if (background) {
        job.backdrop = buildBackdrop(background, job.disposables);
        job.scene.add(job.backdrop);
      }
    },

    async still(view) {
      await frames.opened;
      draw(view);
      frames.send(reader.rgba(view.width, view.height));
    },

    async turntable(view) {
      await frames.opened;
      const backdrop = job?.backdrop;
      if (!view.yuv || !backdrop) {
        return frames.sendPaced(view.frames, view.window, (i) => {
          draw({ ...view, modelRotation: turntableAngle(i, view.frames) });
          return reader.rgba(view.width, view.height);
        });
      }
      const turntable = new TurntableFrames(
        renderer,
        view.width,
        view.height,
        view.region,
        job!.bounds,
        job!.levels.map((level) => level.geometry.getAttribute('position').array),
        backdrop,
        job!.shadow,
      );
      try {
        return await frames.sendPaced(view.frames, view.window, (i) => {
          const frame = { ...view, modelRotation: turntableAngle(i, view.frames) };
          return turntable.draw(pose(frame).scene, camera, frame, reader, i === 0);
        });
      } finally {
        turntable.dispose();
      }
    },

    cancel() {
      frames.cancel();
    },

    unload() {
      reader.dispose();
      if (!job) return;
      for (const d of job.disposables) d.dispose();
      job = undefined;
      renderer.renderLists.dispose();
    },
  };
  (globalThis as unknown as { atelierStudio: StudioPageApi }).atelierStudio = api;
}

/**
 * The frame channel's socket: through the shared frame relay at `relay` (frame-relay.ts: DevTools
 * would otherwise base64 every frame the page sends), or, without one, the page's own WebSocket.
 */
function openTransport(url: string, relay: string | undefined): FrameTransport {
  if (relay && typeof SharedWorker === 'function') {
    // Named after the page's channel, so no other page ever shares it.
    const worker = new SharedWorker(relay, { name: new URL(url).pathname });
    return relayTransport(worker.port, url);
  }
  const socket = new WebSocket(url);
  socket.binaryType = 'arraybuffer';
  return socket;
}
