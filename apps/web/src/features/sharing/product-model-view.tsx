import { useEffect, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Box3, MathUtils, PerspectiveCamera, Vector3, type Material, type Mesh, type Object3D } from 'three';
import { GLTFLoader, type GLTF } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { MeshoptDecoder } from 'three/examples/jsm/libs/meshopt_decoder.module.js';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { PageLoader } from '../../components/page-loader';
import { createThreeStage, hasWebGL, SOFTWARE_MAX_METALNESS } from '../../lib/three-stage';

interface VariantsExtension {
  KHR_materials_variants?: { variants?: Array<{ name: string; extras?: { id?: string } }> };
}
interface MappingsExtension {
  KHR_materials_variants?: { mappings: Array<{ material: number; variants: number[] }> };
}

/**
 * Wears a colourway of the GLB's KHR_materials_variants on every mesh it maps (by the colourway's
 * id, kept in the variant's extras), or each mesh's own material for none. On a software GPU (no
 * reflections) metals are held to SOFTWARE_MAX_METALNESS, as the studio's view holds them.
 */
async function wearVariant(
  gltf: GLTF,
  variantId: string | null,
  originals: Map<Mesh, Material | Material[]>,
  software: boolean,
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
    for (const material of [mesh.material].flat())
      if (software && 'metalness' in material && typeof material.metalness === 'number')
        material.metalness = Math.min(material.metalness, SOFTWARE_MAX_METALNESS);
  }
}

/** How much room the model's bounding sphere leaves around it in the view, as a factor of its distance. */
const FRAME_MARGIN = 1.1;

/** The model as loaded, with each mesh's own material kept for "as designed". */
interface LoadedModel {
  gltf: GLTF;
  originals: Map<Mesh, Material | Material[]>;
  software: boolean;
  render: () => void;
}

/** Wears the colourway on the model shown and draws it; `onWorn` once it shows, unless the view closed or reloaded meanwhile. */
function wear(
  shown: RefObject<LoadedModel | null>,
  id: string | null,
  onWorn: (worn: { id: string | null }) => void,
) {
  const current = shown.current;
  if (!current) return;
  void wearVariant(current.gltf, id, current.originals, current.software).then(() => {
    if (shown.current !== current) return;
    current.render();
    onWorn({ id });
  });
}

/**
 * The product's GLB in an orbiting 3D view (drag to turn, pinch or scroll to zoom), in the colourway
 * chosen; `data-variant` says the colourway it wears once drawn in it (empty: the project's own finishes).
 */
export default function ProductModelView({ url, variant }: { url: string; variant: string | null }) {
  const { t } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  const model = useRef<LoadedModel | null>(null);
  const [webgl] = useState(hasWebGL);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>(webgl ? 'loading' : 'failed');
  const [worn, setWorn] = useState<{ id: string | null } | null>(null);
  // The colourway to wear once the model arrives; a later one is worn below without loading it again.
  const wanted = useRef(variant);

  useEffect(() => {
    if (!webgl) return;
    let disposed = false;
    const camera = new PerspectiveCamera(35, 1, 0.001, 1000);
    let render = () => {};
    const stage = createThreeStage(host.current!, {
      onResize: (width, height) => {
        camera.aspect = width / height;
        camera.updateProjectionMatrix();
        render();
      },
    });
    const { renderer, scene, software } = stage;
    render = () => renderer.render(scene, camera);
    const controls = new OrbitControls(camera, renderer.domElement);
    controls.enableDamping = true;
    controls.addEventListener('change', render);
    let frame = 0;
    const loop = () => {
      frame = requestAnimationFrame(loop);
      if (controls.update()) render();
    };

    const loader = new GLTFLoader().setMeshoptDecoder(MeshoptDecoder);
    loader.load(
      url,
      (gltf) => {
        if (disposed) return;
        scene.add(gltf.scene);
        // Framed whole, from a little above, whatever the model's real size: far enough for its
        // bounding sphere to fit the narrower of the view's two angles, with a margin.
        const bounds = new Box3().setFromObject(gltf.scene);
        const size = bounds.getSize(new Vector3()).length();
        const center = bounds.getCenter(new Vector3());
        const vertical = MathUtils.degToRad(camera.fov) / 2;
        const narrower = Math.min(vertical, Math.atan(Math.tan(vertical) * camera.aspect));
        const distance = (size / 2 / Math.sin(narrower)) * FRAME_MARGIN;
        controls.target.copy(center);
        camera.position.copy(center).add(new Vector3(0.6, 0.45, 1).normalize().multiplyScalar(distance));
        camera.near = size / 100;
        camera.far = size * 100;
        camera.updateProjectionMatrix();
        controls.minDistance = size * 0.4;
        controls.maxDistance = size * 5;
        controls.update();
        model.current = { gltf, originals: new Map(), software, render };
        wear(model, wanted.current, setWorn);
        setState('ready');
        loop();
      },
      undefined,
      () => !disposed && setState('failed'),
    );
    return () => {
      disposed = true;
      cancelAnimationFrame(frame);
      controls.dispose();
      stage.dispose();
      model.current = null;
    };
  }, [url, webgl]);

  useEffect(() => {
    wanted.current = variant;
    wear(model, variant, setWorn);
  }, [variant]);

  return (
    <div
      ref={host}
      role="img"
      aria-label={t('product.viewer_label')}
      data-testid="product-3d"
      data-state={state}
      data-variant={worn ? (worn.id ?? '') : undefined}
      className="relative size-full touch-none"
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
