import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ACESFilmicToneMapping,
  Box3,
  Color,
  HemisphereLight,
  DirectionalLight,
  PerspectiveCamera,
  PMREMGenerator,
  Scene,
  SRGBColorSpace,
  Vector3,
  WebGLRenderer,
  type Material,
  type Mesh,
  type Object3D,
} from 'three';
import { GLTFLoader, type GLTF } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { MeshoptDecoder } from 'three/examples/jsm/libs/meshopt_decoder.module.js';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { RoomEnvironment } from 'three/examples/jsm/environments/RoomEnvironment.js';
import { PageLoader } from '../../components/page-loader';

interface VariantsExtension {
  KHR_materials_variants?: { variants?: Array<{ name: string; extras?: { id?: string } }> };
}
interface MappingsExtension {
  KHR_materials_variants?: { mappings: Array<{ material: number; variants: number[] }> };
}

/**
 * Wears a colourway of the GLB's KHR_materials_variants on every mesh it maps (by the colourway's
 * id, kept in the variant's extras), or each mesh's own material for none.
 */
async function wearVariant(
  gltf: GLTF,
  variantId: string | null,
  originals: Map<Mesh, Material | Material[]>,
) {
  const variants =
    (gltf.parser.json.extensions as VariantsExtension | undefined)?.KHR_materials_variants?.variants ?? [];
  const index = variants.findIndex((variant) => variant.extras?.id === variantId);
  const meshes: Mesh[] = [];
  gltf.scene.traverse((object: Object3D) => {
    if ((object as Mesh).isMesh) meshes.push(object as Mesh);
  });
  for (const mesh of meshes) {
    if (!originals.has(mesh)) originals.set(mesh, mesh.material);
    const mappings = (mesh.userData.gltfExtensions as MappingsExtension | undefined)?.KHR_materials_variants
      ?.mappings;
    const mapping = index < 0 ? undefined : mappings?.find((m) => m.variants.includes(index));
    mesh.material = mapping
      ? ((await gltf.parser.getDependency('material', mapping.material)) as Material)
      : originals.get(mesh)!;
  }
}

/** The product's GLB in an orbiting 3D view (drag to turn, pinch or scroll to zoom), in the colourway chosen. */
export default function ProductModelView({ url, variant }: { url: string; variant: string | null }) {
  const { t } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  const model = useRef<{
    gltf: GLTF;
    originals: Map<Mesh, Material | Material[]>;
    render: () => void;
  } | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  // The colourway to wear once the model arrives; a later one is worn below without loading it again.
  const wanted = useRef(variant);

  useEffect(() => {
    const element = host.current!;
    let disposed = false;
    const renderer = new WebGLRenderer({ antialias: true, alpha: true });
    renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
    renderer.outputColorSpace = SRGBColorSpace;
    renderer.toneMapping = ACESFilmicToneMapping;
    element.appendChild(renderer.domElement);
    renderer.domElement.className = 'size-full touch-none';
    const scene = new Scene();
    const environment = new PMREMGenerator(renderer).fromScene(new RoomEnvironment(), 0.04).texture;
    scene.environment = environment;
    scene.add(new HemisphereLight(new Color('#ffffff'), new Color('#b0a89a'), 0.6));
    const sun = new DirectionalLight('#ffffff', 1.2);
    sun.position.set(3, 5, 4);
    scene.add(sun);
    const camera = new PerspectiveCamera(35, 1, 0.001, 1000);
    const controls = new OrbitControls(camera, renderer.domElement);
    controls.enableDamping = true;
    const render = () => renderer.render(scene, camera);
    const resize = () => {
      const { width, height } = element.getBoundingClientRect();
      renderer.setSize(width, height, false);
      camera.aspect = width / Math.max(1, height);
      camera.updateProjectionMatrix();
      render();
    };
    const observer = new ResizeObserver(resize);
    observer.observe(element);
    let frame = 0;
    const loop = () => {
      frame = requestAnimationFrame(loop);
      if (controls.update()) render();
    };
    controls.addEventListener('change', render);

    const loader = new GLTFLoader().setMeshoptDecoder(MeshoptDecoder);
    loader.load(
      url,
      (gltf) => {
        if (disposed) return;
        scene.add(gltf.scene);
        // Framed whole, from a little above, whatever the model's real size.
        const bounds = new Box3().setFromObject(gltf.scene);
        const size = bounds.getSize(new Vector3()).length();
        const center = bounds.getCenter(new Vector3());
        controls.target.copy(center);
        camera.position.copy(center).add(new Vector3(0.6, 0.45, 1).normalize().multiplyScalar(size * 1.4));
        camera.near = size / 100;
        camera.far = size * 100;
        controls.minDistance = size * 0.4;
        controls.maxDistance = size * 5;
        resize();
        model.current = { gltf, originals: new Map(), render };
        void wearVariant(gltf, wanted.current, model.current.originals).then(render);
        setState('ready');
        loop();
      },
      undefined,
      () => !disposed && setState('failed'),
    );
    return () => {
      disposed = true;
      cancelAnimationFrame(frame);
      observer.disconnect();
      controls.dispose();
      environment.dispose();
      renderer.dispose();
      renderer.domElement.remove();
      model.current = null;
    };
  }, [url]);

  useEffect(() => {
    wanted.current = variant;
    const current = model.current;
    if (current) void wearVariant(current.gltf, variant, current.originals).then(current.render);
  }, [variant]);

  return (
    <div
      ref={host}
      role="img"
      aria-label={t('product.viewer_label')}
      data-testid="product-3d"
      data-state={state}
      className="relative size-full"
    >
      {state === 'loading' && (
        <div className="absolute inset-0 grid place-items-center">
          <PageLoader />
        </div>
      )}
      {state === 'failed' && (
        <p className="absolute inset-0 grid place-items-center p-6 text-center text-sm text-muted">
          {t('product.viewer_failed')}
        </p>
      )}
    </div>
  );
}
