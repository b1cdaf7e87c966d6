import type * as Three from 'three';
import type { Bounds, PbrMaterial, Scene } from '../../types';

// Shapes exchanged with the page. Everything here is plain data: it crosses page.evaluate.

export type Vec3 = [number, number, number];

export interface PagePart {
  name: string;
  material: PbrMaterial;
  /** Byte offsets into the job's binary blob; lengths are in elements. */
  positions: number;
  normals: number;
  indices: number;
  vertexCount: number;
  indexCount: number;
  /** Simplified index buffers for output sizes (min of width and height); `indices` absent = the full mesh. */
  lods: Array<{ size: number; indices?: number; indexCount: number }>;
  /** Closed and wound outward: its back faces never show, so it is drawn single-sided. */
  closed: boolean;
  colors?: number;
  uvs?: number;
  texture?: { offset: number; width: number; height: number };
}

export interface PageJob {
  /** URL of the binary blob holding every part's arrays. */
  url: string;
  parts: PagePart[];
  bounds: Bounds;
  environment: Scene['environment'];
  /** sRGB 0..1 triples; null for a transparent background. */
  background: { top: Vec3; bottom: Vec3 } | null;
  groundShadow: boolean;
  exposure: number;
}

export interface PageView {
  width: number;
  height: number;
  position: Vec3;
  target: Vec3;
  up: Vec3;
  fov: number;
  near: number;
  far: number;
  /** Radians about +y: the model (and its shadow) for turntables, the light rig for stills. */
  modelRotation: number;
  environmentRotation: number;
}

export interface PageTurntable extends Omit<PageView, 'modelRotation'> {
  frames: number;
  /**
   * Send planar YUV 4:2:0 (BT.601 limited range, top row first) converted on the GPU instead of
   * RGBA: 2.7× fewer bytes to move and nothing left for ffmpeg to convert. Needs a width divisible
   * by 8 and a height divisible by 4.
   */
  yuv: boolean;
  /** Frames the page may render ahead of Node's acknowledgements. */
  window: number;
}

export interface StudioPageApi {
  load(job: PageJob): Promise<{ triangles: number; maxSamples: number }>;
  /** Replaces the loaded job's background (a video cannot be transparent). */
  background(background: PageJob['background']): void;
  /** Renders one view and sends its RGBA pixels (bottom-up rows) over the frame channel. */
  still(view: PageView): Promise<void>;
  /** Renders `frames` views of one full turn and sends each; resolves when Node acknowledged all. */
  turntable(view: PageTurntable): Promise<number>;
  cancel(): void;
  unload(): void;
}

/**
 * Runs inside the studio page (serialised by page.evaluate, so it may only use what it declares
 * itself): sets up a three.js renderer and exposes `globalThis.atelierStudio`.
 */
export function installStudioPage(): void {
  const THREE = (globalThis as unknown as { THREE: typeof Three }).THREE;
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

  // Frames go to Node as binary WebSocket messages; Node acknowledges each one it has consumed.
  const socket = new WebSocket(location.href.replace(/^http/, 'ws').replace('/page/', '/frames/'));
  socket.binaryType = 'arraybuffer';
  let acked = 0;
  let ackWaiter: (() => void) | undefined;
  socket.addEventListener('message', () => {
    acked++;
    ackWaiter?.();
  });
  const opened = new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true });
    socket.addEventListener('error', () => reject(new Error('frame channel failed to open')), { once: true });
  });

  type Levels = Array<{
    geometry: Three.BufferGeometry;
    full: Three.BufferAttribute;
    lods: Array<{ size: number; index: Three.BufferAttribute }>;
  }>;
  const gem = (spec: PbrMaterial): boolean => (spec.transmission ?? 0) > 0;
  const camera = new THREE.PerspectiveCamera();
  const fullscreenCamera = new THREE.OrthographicCamera(-1, 1, 1, -1, 0, 1);
  const quad = new THREE.PlaneGeometry(2, 2);
  let pixels = new Uint8Array(0);
  let cancelled = false;
  let job:
    | {
        scene: Three.Scene;
        model: Three.Group;
        backdrop?: Three.Mesh;
        disposables: Array<{ dispose(): void }>;
        triangles: number;
        levels: Levels;
      }
    | undefined;

  /** Gradient dome plus emissive softboxes, pre-filtered by PMREM into the scene's environment. */
  function buildEnvironment(preset: Scene['environment']['preset']): Three.Texture {
    const env = new THREE.Scene();
    const looks = {
      // High contrast: black flags at the horizon and bright strips, so polished metal shows its colour.
      jewellery: {
        top: 0.55,
        horizon: 0.015,
        floor: 0.9,
        boxes: 1.0,
        overhead: 1.0,
        blur: 0.015,
        flags: true,
      },
      studio: { top: 0.7, horizon: 0.22, floor: 0.55, boxes: 0.7, overhead: 0.8, blur: 0.03, flags: false },
      // Even light, but dark enough around the horizon, and a dim enough overhead box for flat
      // faces, that steel still reads as metal, not paint.
      neutral: { top: 0.4, horizon: 0.07, floor: 0.3, boxes: 0.3, overhead: 0.5, blur: 0.04, flags: false },
    }[preset];
    const dome = new THREE.SphereGeometry(60, 48, 24);
    const colors: number[] = [];
    const position = dome.getAttribute('position');
    for (let i = 0; i < position.count; i++) {
      const y = position.getY(i) / 60;
      const v =
        y >= 0
          ? looks.horizon + (looks.top - looks.horizon) * Math.pow(y, 0.6)
          : looks.horizon + (looks.floor - looks.horizon) * Math.pow(-y, 0.35);
      colors.push(v, v, v * 0.98);
    }
    dome.setAttribute('color', new THREE.Float32BufferAttribute(colors, 3));
    env.add(new THREE.Mesh(dome, new THREE.MeshBasicMaterial({ side: THREE.BackSide, vertexColors: true })));

    // Softboxes: [x, y, z, width, height, radiance]; each faces the origin.
    const boxes: Array<[number, number, number, number, number, number]> = [
      [0, 24, 2, 22, 16, 9], // overhead
      [-20, 8, 14, 7, 26, 14], // key strip, front left
      [22, 6, 6, 7, 22, 9], // fill strip, right
      [4, 10, -22, 24, 6, 11], // rim strip, behind
      [-14, 2, -14, 5, 12, 5], // kicker, back left
    ];
    for (const [i, [x, y, z, w, h, radiance]] of boxes.entries()) {
      const material = new THREE.MeshBasicMaterial({ side: THREE.DoubleSide });
      material.color.setScalar(radiance * looks.boxes * (i === 0 ? looks.overhead : 1));
      const box = new THREE.Mesh(new THREE.PlaneGeometry(w, h), material);
      box.position.set(x, y, z);
      box.lookAt(0, 0, 0);
      env.add(box);
    }
    if (looks.flags) {
      // Black cards, as a jewellery photographer sets them: one around the camera and two high at
      // the sides. Stones need dark to sparkle against, and gold needs it to look deep.
      const flags: Array<[number, number, number, number, number]> = [
        [0, 9, 24, 18, 12],
        [-17, 16, -4, 7, 14],
        [18, 15, -10, 7, 14],
      ];
      for (const [x, y, z, w, h] of flags) {
        const flag = new THREE.Mesh(
          new THREE.PlaneGeometry(w, h),
          new THREE.MeshBasicMaterial({ color: 0x000000, side: THREE.DoubleSide }),
        );
        flag.position.set(x, y, z);
        flag.lookAt(0, 0, 0);
        env.add(flag);
      }
    }
    const target = pmrem.fromScene(env, looks.blur, 0.1, 200);
    env.traverse((o) => {
      const mesh = o as Three.Mesh;
      if (mesh.isMesh) {
        mesh.geometry.dispose();
        (mesh.material as Three.Material).dispose();
      }
    });
    return target.texture;
  }

  // Sharpest CubeUV level the baked cube holds, and the mip the environment's roughest finishes need.
  const CUBE_UV_MIN_BAKED_MIP = 4;
  /** Finishes at least this rough keep three.js's CubeUV lookups (their blur lives below the baked levels). */
  const BAKED_MAX_ROUGHNESS = 0.2;

  /**
   * The pre-filtered environment re-sampled into cube textures: one mip level per CubeUV level
   * from the sharpest down to 16 px faces, and the fully blurred level for irradiance. SwiftShader
   * samples a cube in one native lookup, where three.js's CubeUV atlas costs two bilinear fetches
   * with face and atlas arithmetic each — for a polished metal, most of a frame's shading.
   */
  function bakeEnvironmentCubes(
    environment: Three.Texture,
    disposables: Array<{ dispose(): void }>,
  ): { radiance: Three.Texture; irradiance: Three.Texture } {
    const height = (environment.image as { height: number }).height;
    const maxMip = Math.log2(height) - 2;
    const material = new THREE.ShaderMaterial({
      side: THREE.BackSide,
      depthTest: false,
      depthWrite: false,
      // The defines three.js gives a material whose envMap is this CubeUV atlas.
      defines: {
        ENVMAP_TYPE_CUBE_UV: '',
        CUBEUV_TEXEL_WIDTH: 1 / (3 * Math.max(2 ** maxMip, 7 * 16)),
        CUBEUV_TEXEL_HEIGHT: 1 / height,
        CUBEUV_MAX_MIP: `${maxMip}.0`,
      },
      uniforms: { envMap: { value: environment }, mip: { value: 0 } },
      vertexShader: `varying vec3 vDirection;
        void main() { vDirection = position; gl_Position = projectionMatrix * modelViewMatrix * vec4(position, 1.0); }`,
      fragmentShader: `#include <common>
        uniform sampler2D envMap; uniform float mip; varying vec3 vDirection;
        #include <cube_uv_reflection_fragment>
        void main() {
          vec3 direction = normalize(vDirection);
          // A negative mip asks for the irradiance level (roughness 1).
          gl_FragColor = vec4(mip < 0.0 ? textureCubeUV(envMap, direction, 1.0).rgb : bilinearCubeUV(envMap, direction, mip), 1.0);
        }`,
    });
    const box = new THREE.Mesh(new THREE.BoxGeometry(2, 2, 2), material);
    const scene = new THREE.Scene();
    scene.add(box);
    const cube = (size: number, mipmaps: boolean): Three.WebGLCubeRenderTarget => {
      const target = new THREE.WebGLCubeRenderTarget(size, {
        type: THREE.HalfFloatType,
        generateMipmaps: mipmaps,
        minFilter: mipmaps ? THREE.LinearMipmapLinearFilter : THREE.LinearFilter,
        depthBuffer: false,
      });
      disposables.push(target);
      return target;
    };
    const radiance = cube(2 ** maxMip, true);
    const camera = new THREE.CubeCamera(0.1, 10, radiance);
    // Level 0 first: rendering it regenerates every mip, which the levels below then overwrite.
    for (let level = 0; level <= maxMip - CUBE_UV_MIN_BAKED_MIP; level++) {
      material.uniforms.mip!.value = maxMip - level;
      camera.activeMipmapLevel = level;
      // three.js keeps the level-0 viewport for every mip level.
      radiance.viewport.set(0, 0, 2 ** (maxMip - level), 2 ** (maxMip - level));
      camera.update(renderer, scene);
    }
    radiance.viewport.set(0, 0, 2 ** maxMip, 2 ** maxMip);
    const irradiance = cube(16, false);
    material.uniforms.mip!.value = -1;
    camera.renderTarget = irradiance;
    camera.activeMipmapLevel = 0;
    camera.update(renderer, scene);
    box.geometry.dispose();
    material.dispose();
    return { radiance: radiance.texture, irradiance: irradiance.texture };
  }

  // three.js's IBL lookups (envmap_physical_pars_fragment) on the baked cubes, same mip selection.
  const BAKED_IBL = `
    uniform samplerCube envRadiance;
    uniform samplerCube envIrradiance;
    vec3 getIBLIrradiance(const in vec3 normal) {
      vec3 worldNormal = inverseTransformDirection(normal, viewMatrix);
      return PI * textureCube(envIrradiance, envMapRotation * worldNormal).rgb * envMapIntensity;
    }
    vec3 getIBLRadiance(const in vec3 viewDir, const in vec3 normal, const in float roughness) {
      vec3 reflectVec = normalize(mix(reflect(-viewDir, normal), normal, roughness * roughness));
      reflectVec = inverseTransformDirection(reflectVec, viewMatrix);
      float mip = clamp(roughnessToMip(roughness), ${CUBE_UV_MIN_BAKED_MIP}.0, CUBEUV_MAX_MIP);
      return textureLod(envRadiance, envMapRotation * reflectVec, CUBEUV_MAX_MIP - mip).rgb * envMapIntensity;
    }`;

  // Light leaving a cut stone, traced through an ideal brilliant: refract in through the facet,
  // reflect off two pavilion facets (41° below the girdle, on the side the ray heads to), refract
  // out, and look the environment up there — once per colour with a slightly different index
  // (dispersion, the stone's "fire"). Each facet sends the eye to a different part of the studio,
  // bright softbox or dark flag: the contrast that makes a diamond read as one.
  const GEM_LIGHT = `
    #ifdef USE_ENVMAP
    {
      vec3 up = normalize((viewMatrix * vec4(0.0, 1.0, 0.0, 0.0)).xyz);
      float facing = saturate(dot(normal, geometryViewDir));
      float fresnel = 0.17 + 0.83 * pow(1.0 - facing, 5.0);
      // Which way this facet faces around the stone's axis: the real ray's path depends on where
      // it enters, which a single fragment cannot trace, so the facet's bearing picks the pavilion
      // facets it meets instead. Facets then see different parts of the studio, as in a real stone.
      vec3 side = normalize(normal - dot(normal, up) * up + vec3(1e-4));
      vec3 east = normalize(cross(up, vec3(0.0, 0.0, 1.0)) + vec3(1e-4));
      float bearing = atan(dot(side, cross(up, east)), dot(side, east));
      vec3 fire = vec3(0.0);
      float obstruction = 0.0;
      for (int c = 0; c < 3; c++) {
        float ior = gemIor * (0.985 + 0.015 * float(c));
        vec3 ray = refract(-geometryViewDir, normal, 1.0 / ior);
        for (int bounce = 0; bounce < 2; bounce++) {
          float turn = bearing * (3.0 + 2.0 * float(bounce));
          vec3 heading = normalize(ray - dot(ray, up) * up + vec3(1e-4));
          heading = heading * cos(turn) + cross(up, heading) * sin(turn);
          float tilt = 0.72 + 0.2 * sin(bearing * 8.0 + float(bounce));
          ray = reflect(ray, normalize(heading * cos(tilt) - up * sin(tilt)));
        }
        vec3 out_ = refract(ray, -normal, ior);
        if (dot(out_, out_) < 1e-6) out_ = reflect(ray, -normal);
        vec3 world = inverseTransformDirection(out_, viewMatrix);
        fire[c] = textureCubeUV(envMap, envMapRotation * world, 0.0)[c];
        // Rays leaving back towards the lens meet the camera and the photographer, not the studio:
        // the dark "obstruction" that gives a photographed brilliant its black facets. Taken from
        // the middle colour's ray alone, so it darkens a facet without splitting its colours.
        if (c == 1) obstruction = smoothstep(0.45, 0.8, dot(normalize(out_), geometryViewDir));
      }
      fire *= 1.0 - 0.92 * obstruction;
      // A photographed stone is lit by a few small, bright sources and dark surroundings, not by an
      // even white sweep: deepen the mid-tones so facets split into bright and dark.
      fire = pow(fire, vec3(1.8));
      outgoingLight += (1.0 - fresnel) * gemTint * fire * envMapIntensity;
    }
    #endif`;

  function material(
    spec: PbrMaterial,
    part: PagePart,
    texture: Three.Texture | null,
    size: number,
    cubes: { radiance: Three.Texture; irradiance: Three.Texture },
  ): Three.MeshPhysicalMaterial {
    const transmissive = gem(spec);
    const m = new THREE.MeshPhysicalMaterial({
      metalness: spec.metalness,
      roughness: spec.roughness,
      clearcoat: spec.clearcoat ?? 0,
      clearcoatRoughness: 0.03,
      vertexColors: part.colors !== undefined,
      map: texture,
      // Open or inconsistently wound CAD tessellations show both sides; gems stay single-sided for
      // correct refraction.
      side: transmissive || part.closed ? THREE.FrontSide : THREE.DoubleSide,
    });
    m.color.setRGB(spec.baseColor[0], spec.baseColor[1], spec.baseColor[2], THREE.LinearSRGBColorSpace);
    if (transmissive) {
      m.ior = spec.ior ?? 1.5;
      // Screen-space transmission shows the backdrop through the stone, which suits glass and
      // low-index stones. A diamond-like stone (index ≥ 2) returns nearly all light by total
      // internal reflection instead: it is drawn opaque with the light bounced inside it.
      m.transmission = m.ior < 2 ? (spec.transmission ?? 1) : 0;
      m.thickness = size * 1.5;
      m.specularIntensity = 1;
      m.color.setRGB(0, 0, 0);
      const tint = new THREE.Color().setRGB(
        spec.baseColor[0],
        spec.baseColor[1],
        spec.baseColor[2],
        THREE.LinearSRGBColorSpace,
      );
      m.onBeforeCompile = (shader) => {
        shader.uniforms.gemTint = { value: tint };
        shader.uniforms.gemIor = { value: m.ior };
        shader.fragmentShader = shader.fragmentShader
          .replace('void main() {', 'uniform vec3 gemTint;\nuniform float gemIor;\nvoid main() {')
          .replace('#include <opaque_fragment>', GEM_LIGHT + '\n#include <opaque_fragment>');
      };
      m.customProgramCacheKey = () => 'atelier-gem';
    } else if (spec.roughness < BAKED_MAX_ROUGHNESS) {
      m.onBeforeCompile = (shader) => {
        shader.uniforms.envRadiance = { value: cubes.radiance };
        shader.uniforms.envIrradiance = { value: cubes.irradiance };
        shader.fragmentShader = shader.fragmentShader.replace(
          '#include <envmap_physical_pars_fragment>',
          BAKED_IBL,
        );
      };
      m.customProgramCacheKey = () => 'atelier-baked-ibl';
    }
    return m;
  }

  /** A soft contact shadow, rendered once per job from below the ground and blurred twice. */
  function buildContactShadow(
    bounds: Bounds,
    disposables: Array<{ dispose(): void }>,
    subject: Three.Object3D,
  ): Three.Mesh {
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
    // The wide penumbra is blurred at a quarter of the resolution: small kernels, no streaks.
    const size = 512;
    const wideSize = 128;
    const make = (n: number): Three.WebGLRenderTarget =>
      new THREE.WebGLRenderTarget(n, n, { type: THREE.HalfFloatType });
    const occlusion = make(size);
    const ping = make(size);
    const tight = make(size);
    const widePing = make(wideSize);
    const wide = make(wideSize);
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
    // Each round is a 9-tap Gaussian of sigma ≈ 1.6 × radius; rounds add up as √n.
    const blurInto = (
      source: Three.WebGLRenderTarget,
      pong: Three.WebGLRenderTarget,
      target: Three.WebGLRenderTarget,
      sigmaPx: number,
    ): void => {
      const rounds = Math.max(1, Math.ceil((sigmaPx / 1.6 / 1.5) ** 2));
      const radius = sigmaPx / 1.6 / Math.sqrt(rounds);
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
    const unitsPerShadowMap = 2 * half;
    blurInto(occlusion, ping, tight, Math.max(0.8, ((extent * 0.008) / unitsPerShadowMap) * size));
    blurInto(occlusion, widePing, wide, Math.max(1, ((extent * 0.06) / unitsPerShadowMap) * wideSize));
    blur.dispose();
    renderer.setRenderTarget(null);
    renderer.setClearColor(0x000000, 0);

    const groundMaterial = new THREE.ShaderMaterial({
      uniforms: { tight: { value: tight.texture }, wide: { value: wide.texture } },
      transparent: true,
      depthWrite: false,
      toneMapped: false,
      vertexShader: `varying vec2 vUv; void main() { vUv = vec2(uv.x, 1.0 - uv.y); gl_Position = projectionMatrix * modelViewMatrix * vec4(position, 1.0); }`,
      fragmentShader: `uniform sampler2D tight; uniform sampler2D wide; varying vec2 vUv;
        void main() {
          vec2 edge = smoothstep(vec2(0.0), vec2(0.08), vUv) * smoothstep(vec2(0.0), vec2(0.08), 1.0 - vUv);
          float a = 0.55 * texture2D(tight, vUv).r + 0.5 * texture2D(wide, vUv).r;
          gl_FragColor = vec4(0.0, 0.0, 0.0, clamp(a, 0.0, 0.82) * edge.x * edge.y);
        }`,
    });
    const ground = new THREE.Mesh(new THREE.PlaneGeometry(2 * half, 2 * half), groundMaterial);
    ground.rotation.x = -Math.PI / 2;
    ground.position.y = -height * 1e-4;
    ground.renderOrder = 1;
    disposables.push(ground.geometry, groundMaterial);
    return ground;
  }

  function buildBackground(
    background: NonNullable<PageJob['background']>,
    disposables: Array<{ dispose(): void }>,
  ): Three.Mesh {
    // Written as display values, untouched by tone mapping, so the background is exactly the colour asked.
    const m = new THREE.ShaderMaterial({
      uniforms: {
        top: { value: new THREE.Vector3(...background.top) },
        bottom: { value: new THREE.Vector3(...background.bottom) },
      },
      depthTest: false,
      depthWrite: false,
      toneMapped: false,
      vertexShader: `varying float vY; void main() { vY = uv.y; gl_Position = vec4(position.xy, 1.0, 1.0); }`,
      fragmentShader: `uniform vec3 top; uniform vec3 bottom; varying float vY;
        void main() {
          // Half-step dither: 8-bit gradients over 2048 px would band.
          float noise = fract(sin(dot(gl_FragCoord.xy, vec2(12.9898, 78.233))) * 43758.5453) - 0.5;
          vec3 c = mix(bottom, top, smoothstep(0.0, 1.0, vY)) + noise / 255.0;
          gl_FragColor = vec4(c, 1.0);
        }`,
    });
    const mesh = new THREE.Mesh(quad, m);
    mesh.frustumCulled = false;
    mesh.renderOrder = -1;
    disposables.push(m);
    return mesh;
  }

  function draw(view: PageView): void {
    if (!job) throw new Error('no model loaded');
    if (canvas.width !== view.width || canvas.height !== view.height)
      renderer.setSize(view.width, view.height, false);
    camera.fov = view.fov;
    camera.aspect = view.width / view.height;
    camera.near = view.near;
    camera.far = view.far;
    camera.position.set(...view.position);
    camera.up.set(...view.up);
    camera.lookAt(...view.target);
    camera.updateProjectionMatrix();
    job.model.rotation.y = view.modelRotation;
    // The coarsest level of detail made for this output size or a larger one.
    const size = Math.min(view.width, view.height);
    for (const level of job.levels) {
      const fit = level.lods.filter((l) => l.size >= size).sort((a, b) => a.size - b.size)[0];
      const index = fit?.index ?? level.full;
      if (level.geometry.index !== index) level.geometry.setIndex(index);
    }
    job.scene.environmentRotation.set(0, view.environmentRotation, 0);
    renderer.render(job.scene, camera);
  }

  /** The drawn frame as RGBA, rows bottom-up, as WebGL reads them. */
  function readRgba(width: number, height: number): Uint8Array {
    const bytes = width * height * 4;
    if (pixels.length !== bytes) pixels = new Uint8Array(bytes);
    gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
    return pixels;
  }

  // GPU conversion of the drawn frame to yuv420p: each RGBA8 texel of a (W/4 × 1.5H) target carries
  // four consecutive bytes of the Y, then U, then V planes, so one readPixels returns the whole frame.
  let yuv:
    | {
        width: number;
        height: number;
        frame: Three.FramebufferTexture;
        target: Three.WebGLRenderTarget;
        scene: Three.Scene;
        material: Three.ShaderMaterial;
      }
    | undefined;
  function readYuv(width: number, height: number): Uint8Array {
    if (!yuv || yuv.width !== width || yuv.height !== height) {
      disposeYuv();
      const frame = new THREE.FramebufferTexture(width, height);
      const target = new THREE.WebGLRenderTarget(width / 4, (height * 3) / 2, {
        depthBuffer: false,
        type: THREE.UnsignedByteType,
      });
      const material = new THREE.ShaderMaterial({
        uniforms: { source: { value: frame }, size: { value: new THREE.Vector2(width, height) } },
        depthTest: false,
        depthWrite: false,
        vertexShader: `void main() { gl_Position = vec4(position.xy, 0.0, 1.0); }`,
        fragmentShader: `uniform sampler2D source; uniform vec2 size;
          vec3 px(int x, int y) { return texelFetch(source, ivec2(x, int(size.y) - 1 - y), 0).rgb; }
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
      yuv = { width, height, frame, target, scene, material };
    }
    renderer.copyFramebufferToTexture(yuv.frame);
    renderer.setRenderTarget(yuv.target);
    renderer.render(yuv.scene, fullscreenCamera);
    const bytes = (width * height * 3) / 2;
    if (pixels.length !== bytes) pixels = new Uint8Array(bytes);
    renderer.readRenderTargetPixels(yuv.target, 0, 0, width / 4, (height * 3) / 2, pixels);
    renderer.setRenderTarget(null);
    return pixels;
  }

  function disposeYuv(): void {
    if (!yuv) return;
    yuv.frame.dispose();
    yuv.target.dispose();
    yuv.material.dispose();
    yuv = undefined;
  }

  const api: StudioPageApi = {
    async load(spec) {
      await opened;
      api.unload();
      cancelled = false;
      const response = await fetch(spec.url);
      if (!response.ok) throw new Error(`model download failed: ${response.status}`);
      const blob = await response.arrayBuffer();
      const disposables: Array<{ dispose(): void }> = [];
      const scene = new THREE.Scene();
      const model = new THREE.Group();
      const size = Math.max(...spec.bounds.max.map((v, i) => v - spec.bounds.min[i]!));
      let triangles = 0;
      const levels: Levels = [];
      const environment = buildEnvironment(spec.environment.preset);
      disposables.push(environment);
      scene.environment = environment;
      const cubes = bakeEnvironmentCubes(environment, disposables);
      for (const part of spec.parts) {
        const geometry = new THREE.BufferGeometry();
        geometry.setAttribute(
          'position',
          new THREE.BufferAttribute(new Float32Array(blob, part.positions, part.vertexCount * 3), 3),
        );
        geometry.setAttribute(
          'normal',
          new THREE.BufferAttribute(new Float32Array(blob, part.normals, part.vertexCount * 3), 3),
        );
        if (part.colors !== undefined)
          geometry.setAttribute(
            'color',
            new THREE.BufferAttribute(new Float32Array(blob, part.colors, part.vertexCount * 3), 3),
          );
        if (part.uvs !== undefined)
          geometry.setAttribute(
            'uv',
            new THREE.BufferAttribute(new Float32Array(blob, part.uvs, part.vertexCount * 2), 2),
          );
        const full = new THREE.BufferAttribute(new Uint32Array(blob, part.indices, part.indexCount), 1);
        geometry.setIndex(full);
        const lods = part.lods.map((l) => ({
          size: l.size,
          index:
            l.indices === undefined
              ? full
              : new THREE.BufferAttribute(new Uint32Array(blob, l.indices, l.indexCount), 1),
        }));
        geometry.computeBoundingSphere();
        let texture: Three.DataTexture | null = null;
        if (part.texture) {
          const { offset, width, height } = part.texture;
          texture = new THREE.DataTexture(
            new Uint8Array(blob, offset, width * height * 4),
            width,
            height,
            THREE.RGBAFormat,
          );
          texture.colorSpace = THREE.SRGBColorSpace;
          texture.wrapS = texture.wrapT = THREE.RepeatWrapping;
          texture.magFilter = THREE.LinearFilter;
          texture.minFilter = THREE.LinearMipmapLinearFilter;
          texture.generateMipmaps = true;
          texture.anisotropy = 4;
          texture.needsUpdate = true;
          disposables.push(texture);
        }
        geometry.computeBoundingBox();
        const box = geometry.boundingBox!;
        const partSize = Math.max(box.max.x - box.min.x, box.max.y - box.min.y, box.max.z - box.min.z);
        const m = material(part.material, part, texture, partSize || size, cubes);
        const mesh = new THREE.Mesh(geometry, m);
        mesh.name = part.name;
        model.add(mesh);
        levels.push({ geometry, full, lods });
        disposables.push(geometry, m);
        triangles += part.indexCount / 3;
      }
      scene.add(model);
      if (spec.groundShadow) model.add(buildContactShadow(spec.bounds, disposables, model));
      scene.environmentIntensity = spec.environment.intensity;
      renderer.toneMappingExposure = spec.exposure;
      job = { scene, model, disposables, triangles, levels };
      api.background(spec.background);
      // Compile every shader now, so the first frame's time is not spent on it.
      await renderer.compileAsync(scene, camera);
      return { triangles, maxSamples: gl.getParameter(gl.MAX_SAMPLES) as number };
    },

    background(background) {
      if (!job) throw new Error('no model loaded');
      if (job.backdrop) {
        job.scene.remove(job.backdrop);
        (job.backdrop.material as Three.Material).dispose();
        job.backdrop = undefined;
      }
      if (background) {
        job.backdrop = buildBackground(background, job.disposables);
        job.scene.add(job.backdrop);
      }
    },

    async still(view) {
      await opened;
      draw(view);
      socket.send(readRgba(view.width, view.height));
    },

    async turntable(view) {
      await opened;
      const start = acked;
      let sent = 0;
      for (let i = 0; i < view.frames; i++) {
        while (sent - (acked - start) >= view.window && !cancelled) {
          await new Promise<void>((resolve) => (ackWaiter = resolve));
        }
        if (cancelled) throw new Error('cancelled');
        // Clockwise seen from above, like the draft engine's turntable.
        const angle = (-i / view.frames) * Math.PI * 2;
        draw({ ...view, modelRotation: angle });
        socket.send(view.yuv ? readYuv(view.width, view.height) : readRgba(view.width, view.height));
        sent++;
      }
      while (acked - start < sent && !cancelled) await new Promise<void>((resolve) => (ackWaiter = resolve));
      return sent;
    },

    cancel() {
      cancelled = true;
      ackWaiter?.();
    },

    unload() {
      disposeYuv();
      if (!job) return;
      for (const d of job.disposables) d.dispose();
      job = undefined;
      renderer.renderLists.dispose();
    },
  };
  (globalThis as unknown as { atelierStudio: StudioPageApi }).atelierStudio = api;
}
