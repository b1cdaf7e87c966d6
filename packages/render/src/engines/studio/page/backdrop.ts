import * as THREE from 'three';
import { quad } from './fullscreen';
import type { PageJob } from './protocol';

/** The full-frame gradient behind the model, drawn first and never tone mapped. */
export function buildBackdrop(
  background: NonNullable<PageJob['background']>,
  disposables: Array<{ dispose(): void }>,
): THREE.Mesh {
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
