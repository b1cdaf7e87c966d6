import * as THREE from 'three';

/** The clip-space quad and camera every full-screen pass draws with (backdrop, shadow blur, YUV packing). */
export const quad = new THREE.PlaneGeometry(2, 2);
export const fullscreenCamera = new THREE.OrthographicCamera(-1, 1, 1, -1, 0, 1);
