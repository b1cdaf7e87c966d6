import type { EffectiveScene, StudioCamera, StudioMaterial } from '@atelier/contracts';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ACESFilmicToneMapping,
  Box3,
  BufferAttribute,
  BufferGeometry,
  DirectionalLight,
  HemisphereLight,
  Group,
  Mesh,
  MeshPhysicalMaterial,
  PerspectiveCamera,
  PMREMGenerator,
  Scene,
  SRGBColorSpace,
  Vector3,
  WebGLRenderer,
} from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { RoomEnvironment } from 'three/examples/jsm/environments/RoomEnvironment.js';
import { Spinner } from '../../components/ui/spinner';

type StudioScene = EffectiveScene['data']['scene'];

interface MeshHeader {
  parts: Array<{
    name: string;
    material: string;
    color: [number, number, number] | null;
    vertexCount: number;
    indexCount: number;
  }>;
}

/** Reads the server's packed mesh (see model-mesh.ts on the server) into one geometry per part. */
function unpackMesh(
  bytes: ArrayBuffer,
): Array<{ header: MeshHeader['parts'][number]; geometry: BufferGeometry }> {
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
  return header.parts.map((part) => {
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(take(Float32Array, part.vertexCount * 3), 3));
    geometry.setAttribute('normal', new BufferAttribute(take(Float32Array, part.vertexCount * 3), 3));
    geometry.setIndex(new BufferAttribute(take(Uint32Array, part.indexCount), 1));
    return { header: part, geometry };
  });
}

/** The largest box of the aspect ratio inside the space. */
function fitInside(space: { width: number; height: number }, aspect: number) {
  if (space.width === 0 || space.height === 0) return { width: 0, height: 0 };
  return space.width / space.height > aspect
    ? { width: space.height * aspect, height: space.height }
    : { width: space.width, height: space.width / aspect };
}

function hasWebGL(): boolean {
  try {
    return Boolean(document.createElement('canvas').getContext('webgl2'));
  } catch {
    return false;
  }
}

/** Each part takes its finish from the scene's materials. */
function applyFinishes(model: Group, scene: StudioScene, software: boolean) {
  for (const child of model.children) {
    const mesh = child as Mesh<BufferGeometry, MeshPhysicalMaterial>;
    const finish = materialOf(scene, mesh.userData.part as MeshHeader['parts'][number]);
    mesh.material.color.setRGB(...finish.baseColor);
    // Without reflections full metal renders black; lit by lights only it keeps some diffuse colour.
    mesh.material.metalness = software ? Math.min(finish.metalness, 0.45) : finish.metalness;
    mesh.material.roughness = finish.roughness;
    mesh.material.transmission = finish.transmission ?? 0;
    mesh.material.ior = finish.ior ?? 1.5;
    mesh.material.clearcoat = finish.clearcoat ?? 0;
    mesh.material.needsUpdate = true;
  }
}

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

function materialOf(scene: StudioScene, part: MeshHeader['parts'][number]): StudioMaterial {
  return (
    scene.materials[part.material] ??
    scene.materials['*'] ?? { baseColor: [0.7, 0.7, 0.7], metalness: 0, roughness: 0.5 }
  );
}

/**
 * Where a camera of the scene stands: looking at the model's box centre from its azimuth and
 * elevation, just far enough that every corner of the box stays inside the frame less the margin —
 * the rule the render engines frame by, so the viewer shows the framing the stills will have.
 */
export function framedCamera(
  box: Box3,
  angle: Pick<StudioCamera, 'azimuth' | 'elevation' | 'fov'>,
  aspect: number,
  margin: number,
) {
  const rad = Math.PI / 180;
  const back = new Vector3(
    Math.sin(angle.azimuth * rad) * Math.cos(angle.elevation * rad),
    Math.sin(angle.elevation * rad),
    Math.cos(angle.azimuth * rad) * Math.cos(angle.elevation * rad),
  ).normalize();
  const right = new Vector3(0, 1, 0).cross(back).normalize();
  const up = back.clone().cross(right);
  const target = box.getCenter(new Vector3());
  const tanY = Math.tan((angle.fov * rad) / 2) * (1 - 2 * margin);
  const tanX = tanY * aspect;
  let distance = 0;
  for (let i = 0; i < 8; i++) {
    const corner = new Vector3(
      i & 1 ? box.max.x : box.min.x,
      i & 2 ? box.max.y : box.min.y,
      i & 4 ? box.max.z : box.min.z,
    ).sub(target);
    const depth = corner.dot(back);
    distance = Math.max(
      distance,
      depth + Math.abs(corner.dot(right)) / tanX,
      depth + Math.abs(corner.dot(up)) / tanY,
    );
  }
  return { position: target.clone().addScaledVector(back, distance), target };
}

interface ModelViewerProps {
  fileId: string;
  scene: StudioScene;
  cameraIndex: number;
  /** Spin the model like the turntable video. */
  spinning: boolean;
}

/** A live three.js view of an input with the project's scene: finish, background, camera and framing. */
export function ModelViewer({ fileId, scene, cameraIndex, spinning }: ModelViewerProps) {
  const { t } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  const stage = useRef<{
    renderer: WebGLRenderer;
    camera: PerspectiveCamera;
    controls: OrbitControls;
    model: Group;
    world: Scene;
    box: Box3 | null;
  } | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
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
    const element = host.current!;
    const renderer = new WebGLRenderer({ antialias: true, alpha: true, preserveDrawingBuffer: true });
    renderer.setPixelRatio(Math.min(2, window.devicePixelRatio));
    renderer.outputColorSpace = SRGBColorSpace;
    renderer.toneMapping = ACESFilmicToneMapping;
    element.appendChild(renderer.domElement);
    renderer.domElement.style.width = '100%';
    renderer.domElement.style.height = '100%';
    const world = new Scene();
    const pmrem = new PMREMGenerator(renderer);
    const software = isSoftwareRenderer(renderer);
    // Reflections come from a prefiltered studio room; a CPU-emulated GPU would freeze the page for
    // many seconds building it, so there the model is lit by plain lights instead.
    if (software)
      world.add(
        new HemisphereLight(0xffffff, 0x8a8580, 2.2),
        keyLight(new Vector3(1, 2, 1.5)),
        keyLight(new Vector3(-1.5, 1, -1)),
      );
    else world.environment = pmrem.fromScene(new RoomEnvironment(), 0.04).texture;
    world.userData.software = software;
    const camera = new PerspectiveCamera(30, 1, 0.001, 100);
    const controls = new OrbitControls(camera, renderer.domElement);
    controls.enableDamping = true;
    const model = new Group();
    world.add(model);
    stage.current = { renderer, camera, controls, model, world, box: null };

    const resize = () => {
      const { width, height } = element.getBoundingClientRect();
      renderer.setSize(Math.max(1, width), Math.max(1, height), false);
      camera.aspect = Math.max(1, width) / Math.max(1, height);
      camera.updateProjectionMatrix();
    };
    const observer = new ResizeObserver(resize);
    observer.observe(element);
    resize();
    let frame = 0;
    const tick = () => {
      frame = requestAnimationFrame(tick);
      if (spinRef.current)
        model.rotation.y += (2 * Math.PI) / (60 * Math.max(1, sceneRef.current.turntable.seconds));
      controls.update();
      renderer.toneMappingExposure = sceneRef.current.exposure ?? 1;
      renderer.render(world, camera);
    };
    tick();
    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
      controls.dispose();
      pmrem.dispose();
      renderer.dispose();
      renderer.domElement.remove();
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
        for (const { header, geometry } of unpackMesh(bytes)) {
          const mesh = new Mesh(geometry, new MeshPhysicalMaterial());
          mesh.userData.part = header;
          model.add(mesh);
        }
        model.rotation.y = 0;
        stage.current.box = new Box3().setFromObject(model);
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

  // The chosen camera (and any change of framing) puts the view back where that still will look from.
  useEffect(() => {
    const current = stage.current;
    const angle = scene.cameras[cameraIndex] ?? scene.cameras[0];
    if (state !== 'ready' || !current?.box || !angle) return;
    current.model.rotation.y = 0;
    const aspect = scene.resolution.width / scene.resolution.height;
    const { position, target } = framedCamera(current.box, angle, aspect, scene.margin);
    current.camera.fov = angle.fov;
    current.camera.position.copy(position);
    current.controls.target.copy(target);
    current.camera.near = position.distanceTo(target) / 100;
    current.camera.far = position.distanceTo(target) * 100;
    current.camera.updateProjectionMatrix();
    current.controls.update();
  }, [scene, cameraIndex, state]);

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
    <div ref={frame} className="relative grid size-full place-items-center">
      <div
        className="relative overflow-hidden rounded-xl shadow-soft"
        style={{ width: fitted.width, height: fitted.height, background: backdrop }}
      >
        <div ref={host} className="absolute inset-0" data-testid="model-viewer" />
        {/* The margin the engine keeps free around the model. */}
        <div
          aria-hidden
          className="pointer-events-none absolute border border-dashed border-black/25"
          style={{ inset: `${scene.margin * 100}%` }}
        />
        {(state !== 'ready' || !webgl) && (
          <div className="absolute inset-0 grid place-items-center bg-surface/60 text-sm text-muted">
            {state === 'loading' && webgl ? <Spinner className="size-6" /> : t('projects.viewer_failed')}
          </div>
        )}
      </div>
    </div>
  );
}
