import type { EffectiveScene, StudioCamera, StudioMaterial } from '@atelier/contracts';
import { frameCamera, samplePositions, type FramedModel } from '@atelier/render/framing';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  BufferAttribute,
  BufferGeometry,
  Group,
  Mesh,
  MeshPhysicalMaterial,
  PerspectiveCamera,
  type Scene,
  type WebGLRenderer,
} from 'three';
import { Spinner } from '../../components/ui/spinner';
import { cn } from '../../lib/cn';
import { createThreeStage, hasWebGL, SOFTWARE_MAX_METALNESS } from '../../lib/three-stage';
import { orbitCamera, zoomCamera } from './camera-binding';

type StudioScene = EffectiveScene['data']['scene'];

interface MeshHeader {
  bounds: FramedModel['bounds'];
  parts: Array<{
    name: string;
    material: string;
    color: [number, number, number] | null;
    vertexCount: number;
    indexCount: number;
  }>;
}

/** Reads the server's packed mesh (see model-mesh.ts on the server) into its bounds and one geometry per part. */
function unpackMesh(bytes: ArrayBuffer): {
  bounds: MeshHeader['bounds'];
  parts: Array<{ header: MeshHeader['parts'][number]; geometry: BufferGeometry }>;
} {
  const headerLength = new DataView(bytes).getUint32(0, true);
  const header = JSON.parse(new TextDecoder().decode(new Uint8Array(bytes, 4, headerLength))) as MeshHeader;
  let offset = 4 + headerLength;
  const take = <T extends Float32Array | Uint32Array>(
    Kind: new (buffer: ArrayBuffer, offset: number, length: number) => T,
    length: number,
  ): T => {
    const array = new Kind(bytes, offset, length);
    offset += length * 4;
    return array;
  };
  const parts = header.parts.map((part) => {
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(take(Float32Array, part.vertexCount * 3), 3));
    geometry.setAttribute('normal', new BufferAttribute(take(Float32Array, part.vertexCount * 3), 3));
    geometry.setIndex(new BufferAttribute(take(Uint32Array, part.indexCount), 1));
    return { header: part, geometry };
  });
  return { bounds: header.bounds, parts };
}

/** The largest box of the aspect ratio inside the space. */
function fitInside(space: { width: number; height: number }, aspect: number) {
  if (space.width === 0 || space.height === 0) return { width: 0, height: 0 };
  return space.width / space.height > aspect
    ? { width: space.height * aspect, height: space.height }
    : { width: space.width, height: space.width / aspect };
}

/** Each part takes its finish from the scene's materials. */
function applyFinishes(model: Group, scene: StudioScene, software: boolean) {
  for (const child of model.children) {
    const mesh = child as Mesh<BufferGeometry, MeshPhysicalMaterial>;
    const finish = materialOf(scene, mesh.userData.part as MeshHeader['parts'][number]);
    mesh.material.color.setRGB(...finish.baseColor);
    mesh.material.metalness = software
      ? Math.min(finish.metalness, SOFTWARE_MAX_METALNESS)
      : finish.metalness;
    mesh.material.roughness = finish.roughness;
    mesh.material.transmission = finish.transmission ?? 0;
    mesh.material.ior = finish.ior ?? 1.5;
    mesh.material.clearcoat = finish.clearcoat ?? 0;
    mesh.material.needsUpdate = true;
  }
}

function materialOf(scene: StudioScene, part: MeshHeader['parts'][number]): StudioMaterial {
  return (
    scene.materials[part.material] ??
    scene.materials['*'] ?? { baseColor: [0.7, 0.7, 0.7], metalness: 0, roughness: 0.5 }
  );
}

/** Points the view's camera where a render engine puts the camera of a still: the same framing function. */
export function aimAsStill(
  view: PerspectiveCamera,
  model: FramedModel & { points: Float32Array },
  angle: StudioCamera,
  aspect: number,
  margin: number,
): void {
  const pose = frameCamera(model, angle, aspect, margin, { points: model.points });
  view.fov = pose.fov;
  view.aspect = pose.aspect;
  view.near = pose.near;
  view.far = pose.far;
  view.position.set(...pose.position);
  view.up.set(...pose.up);
  view.lookAt(...pose.target);
  view.updateProjectionMatrix();
  view.updateMatrixWorld();
}

interface ModelViewerProps {
  fileId: string;
  scene: StudioScene;
  cameraIndex: number;
  /** Spin the model like the turntable video. */
  spinning: boolean;
  /** Dragging, pinching or scrolling the view moves the camera through this, as its sliders do. */
  onCameraChange?: (camera: StudioCamera) => void;
}

type Point = { x: number; y: number };
const WHEEL_BURST_MS = 250;

/**
 * Turns drags on the element into orbits of the camera, and pinches and the wheel into zoom. Each
 * gesture is measured from the camera it began with, so the view never drifts from the values the
 * sliders show; the view itself only ever follows the camera it is given.
 */
function useCameraGestures(
  element: React.RefObject<HTMLDivElement | null>,
  camera: StudioCamera | undefined,
  onCameraChange: ((camera: StudioCamera) => void) | undefined,
) {
  const latest = useRef({ camera, onCameraChange });
  useEffect(() => {
    latest.current = { camera, onCameraChange };
  });
  const enabled = Boolean(camera && onCameraChange);
  useEffect(() => {
    const target = element.current;
    if (!target || !enabled) return;
    const pointers = new Map<number, Point>();
    let gesture: { start: StudioCamera; origin: Map<number, Point> } | null = null;
    let wheel: { start: StudioCamera; delta: number; timer?: ReturnType<typeof setTimeout> } | null = null;
    const emit = (next: StudioCamera) => latest.current.onCameraChange?.(next);
    // A finger added or lifted starts the gesture again from where the camera is now.
    const restart = () => {
      const start = latest.current.camera;
      gesture = start && pointers.size > 0 ? { start, origin: new Map(pointers) } : null;
    };
    const spread = (points: Point[]) => Math.hypot(points[0]!.x - points[1]!.x, points[0]!.y - points[1]!.y);
    const down = (event: PointerEvent) => {
      if (event.button !== 0) return;
      target.setPointerCapture(event.pointerId);
      pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      restart();
    };
    const move = (event: PointerEvent) => {
      if (!pointers.has(event.pointerId) || !gesture) return;
      pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      const ids = [...pointers.keys()];
      if (ids.length === 1) {
        const now = pointers.get(ids[0]!)!;
        const from = gesture.origin.get(ids[0]!)!;
        emit(orbitCamera(gesture.start, now.x - from.x, now.y - from.y, target.clientHeight));
      } else {
        const before = spread(ids.slice(0, 2).map((id) => gesture!.origin.get(id)!));
        const after = spread(ids.slice(0, 2).map((id) => pointers.get(id)!));
        if (before > 0) emit(zoomCamera(gesture.start, after / before));
      }
    };
    const up = (event: PointerEvent) => {
      if (!pointers.delete(event.pointerId)) return;
      restart();
    };
    const scroll = (event: WheelEvent) => {
      const start = wheel?.start ?? latest.current.camera;
      if (!start) return;
      event.preventDefault();
      // A burst of small wheel steps adds up, so a trackpad's fine steps still reach the slider's next step.
      clearTimeout(wheel?.timer);
      wheel = { start, delta: (wheel?.delta ?? 0) + event.deltaY };
      wheel.timer = setTimeout(() => (wheel = null), WHEEL_BURST_MS);
      emit(zoomCamera(start, Math.exp(-wheel.delta / 400)));
    };
    target.addEventListener('pointerdown', down);
    target.addEventListener('pointermove', move);
    target.addEventListener('pointerup', up);
    target.addEventListener('pointercancel', up);
    target.addEventListener('wheel', scroll, { passive: false });
    return () => {
      clearTimeout(wheel?.timer);
      target.removeEventListener('pointerdown', down);
      target.removeEventListener('pointermove', move);
      target.removeEventListener('pointerup', up);
      target.removeEventListener('pointercancel', up);
      target.removeEventListener('wheel', scroll);
    };
  }, [element, enabled]);
  return enabled;
}

/** A live three.js view of an input with the project's scene: finish, background, camera and framing. */
export function ModelViewer({ fileId, scene, cameraIndex, spinning, onCameraChange }: ModelViewerProps) {
  const { t } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  const stage = useRef<{
    renderer: WebGLRenderer;
    camera: PerspectiveCamera;
    model: Group;
    world: Scene;
    /** The model's bounds and sampled vertices, framed exactly as the render engines frame them. */
    framing: (FramedModel & { points: Float32Array }) | null;
  } | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const angle = scene.cameras[cameraIndex] ?? scene.cameras[0];
  const steerable = useCameraGestures(host, state === 'ready' ? angle : undefined, onCameraChange);
  // The picture keeps the output's aspect ratio and fits the space the page gives it.
  const frame = useRef<HTMLDivElement>(null);
  const [frameBox, setFrameBox] = useState({ width: 0, height: 0 });
  useEffect(() => {
    const element = frame.current!;
    const observer = new ResizeObserver(
      ([entry]) => entry && setFrameBox({ width: entry.contentRect.width, height: entry.contentRect.height }),
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const [webgl] = useState(hasWebGL);
  // The animation loop reads the latest scene and spin choice without restarting.
  const sceneRef = useRef(scene);
  const spinRef = useRef(spinning);
  useEffect(() => {
    sceneRef.current = scene;
    spinRef.current = spinning;
  });

  // The renderer lives as long as the component; the model is swapped when the file changes.
  useEffect(() => {
    if (!webgl) return;
    const {
      renderer,
      scene: world,
      software,
      dispose,
    } = createThreeStage(host.current!, {
      preserveDrawingBuffer: true,
    });
    world.userData.software = software;
    const camera = new PerspectiveCamera(30, 1, 0.001, 100);
    const model = new Group();
    world.add(model);
    stage.current = { renderer, camera, model, world, framing: null };
    let frame = 0;
    const tick = () => {
      frame = requestAnimationFrame(tick);
      if (spinRef.current)
        model.rotation.y += (2 * Math.PI) / (60 * Math.max(1, sceneRef.current.turntable.seconds));
      renderer.toneMappingExposure = sceneRef.current.exposure ?? 1;
      renderer.render(world, camera);
    };
    tick();
    return () => {
      cancelAnimationFrame(frame);
      dispose();
      stage.current = null;
    };
  }, [webgl]);

  useEffect(() => {
    if (!stage.current) return;
    // A superseded request is aborted, so the server stops its import and the user's place is free again.
    const request = new AbortController();
    setState('loading');
    // The API client reads JSON; the mesh is binary, so it is fetched directly with the session cookie.
    fetch(`/api/projects/inputs/${fileId}/mesh`, {
      credentials: 'same-origin',
      headers: { 'X-Requested-With': 'XMLHttpRequest' },
      signal: request.signal,
    })
      .then((response) => {
        if (!response.ok) throw new Error(String(response.status));
        return response.arrayBuffer();
      })
      .then((bytes) => {
        if (request.signal.aborted || !stage.current) return;
        const { model } = stage.current;
        for (const child of [...model.children]) {
          model.remove(child);
          (child as Mesh).geometry.dispose();
        }
        const { bounds, parts } = unpackMesh(bytes);
        for (const { header, geometry } of parts) {
          const mesh = new Mesh(geometry, new MeshPhysicalMaterial());
          mesh.userData.part = header;
          model.add(mesh);
        }
        model.rotation.y = 0;
        const points = samplePositions(parts.map(({ geometry }) => geometry.getAttribute('position').array));
        stage.current.framing = { bounds, points };
        setState('ready');
      })
      .catch(() => !request.signal.aborted && setState('failed'));
    return () => request.abort();
  }, [fileId]);

  // Finishes follow the scene's materials as they are edited.
  useEffect(() => {
    if (state !== 'ready' || !stage.current) return;
    applyFinishes(stage.current.model, scene, Boolean(stage.current.world.userData.software));
  }, [scene, state]);

  // The view is always the chosen camera's framing, so it shows what that still will look like.
  useEffect(() => {
    const current = stage.current;
    if (state !== 'ready' || !current?.framing || !angle) return;
    current.model.rotation.y = 0;
    const aspect = scene.resolution.width / scene.resolution.height;
    aimAsStill(current.camera, current.framing, angle, aspect, scene.margin);
  }, [angle, scene.resolution, scene.margin, state]);

  const background = scene.background;
  const backdrop =
    background.kind === 'color'
      ? background.color
      : background.kind === 'gradient'
        ? `linear-gradient(${background.top}, ${background.bottom})`
        : 'repeating-conic-gradient(#e5e7eb 0% 25%, #ffffff 0% 50%) 0 0 / 20px 20px';
  const aspect = scene.resolution.width / scene.resolution.height;
  const fitted = fitInside(frameBox, aspect);

  return (
    // Hidden overflow lets the frame shrink with the page (a rotated tablet) instead of being held at the
    // size of the picture it fitted before.
    <div ref={frame} className="relative grid size-full min-w-0 place-items-center overflow-hidden">
      <div
        className="relative overflow-hidden rounded-xl shadow-soft"
        style={{ width: fitted.width, height: fitted.height, background: backdrop }}
      >
        <div
          ref={host}
          className={cn('absolute inset-0', steerable && 'cursor-grab touch-none active:cursor-grabbing')}
          data-testid="model-viewer"
        />
        {/* The margin the engine keeps free around the model. */}
        <div
          aria-hidden
          className="pointer-events-none absolute border border-dashed border-black/25"
          style={{ inset: `${scene.margin * 100}%` }}
        />
        {(state !== 'ready' || !webgl) && (
          <div className="absolute inset-0 grid place-items-center bg-surface/60 text-sm text-muted">
            {state === 'loading' && webgl ? (
              <Spinner className="size-6" label={t('common.loading')} />
            ) : (
              t('projects.viewer_failed')
            )}
          </div>
        )}
      </div>
    </div>
  );
}
