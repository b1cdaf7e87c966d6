// A procedural photo studio: a dim room, a lit floor sweep and rectangular softboxes. Specular
// lookups widen each softbox's edge with roughness (energy-preserving ramp), and diffuse light
// comes from a 9-term spherical-harmonics fit of the same room, so both stay cheap per pixel.

import { lensDirection, STONE_LIGHTS, STONE_ROOM } from '../../scene/stones';

export type EnvironmentPreset = 'studio' | 'jewellery' | 'neutral';
/** The studios a scene picks, and the light set gem materials see instead. */
export type Room = EnvironmentPreset | 'stones';

interface Softbox {
  center: [number, number, number];
  halfWidth: number;
  halfHeight: number;
  intensity: [number, number, number];
  /**
   * A graduated card: its radiance scaled from `gradient[0]` at its lower edge to `gradient[1]` at
   * its upper edge, so a flat polished face mirroring it carries a gradient, not one flat tone. It
   * hides the room behind it (plain boxes add to it).
   */
  gradient?: [number, number];
}

interface RoomLook {
  zenith: [number, number, number];
  horizon: [number, number, number];
  floor: [number, number, number];
  edge: number;
  boxes: Softbox[];
}

const white = (v: number): [number, number, number] => [v, v, v];
const warm = (v: number): [number, number, number] => [v, v * 0.97, v * 0.92];

// Jewellery photography wants deep darks between bright cards, so metals show contrast.
const ROOMS: Record<Room, RoomLook> = {
  jewellery: {
    zenith: white(0.16),
    horizon: white(0.015),
    floor: white(0.42),
    edge: 0.025,
    boxes: [
      { center: [0, 1, 0.3], halfWidth: 0.75, halfHeight: 0.6, intensity: white(3.2), gradient: [0.25, 1.5] },
      { center: [-1, 0.3, 0.55], halfWidth: 0.1, halfHeight: 1.1, intensity: warm(6) },
      { center: [1, 0.25, 0.15], halfWidth: 0.09, halfHeight: 1.1, intensity: white(5) },
      // Graduated front card (every studio has one): a flat face turned to the camera mirrors it
      // as a falloff.
      { center: [0.05, -0.24, 1], halfWidth: 0.7, halfHeight: 0.2, intensity: white(2), gradient: [0.08, 1] },
      { center: [0.35, 0.45, -1], halfWidth: 0.35, halfHeight: 0.35, intensity: white(2.8) },
      { center: [-0.6, 0.05, -0.7], halfWidth: 0.06, halfHeight: 0.5, intensity: white(4) },
    ],
  },
  studio: {
    zenith: white(0.35),
    horizon: white(0.09),
    floor: white(0.3),
    edge: 0.05,
    boxes: [
      { center: [-0.8, 0.7, 0.7], halfWidth: 0.5, halfHeight: 0.5, intensity: warm(4.5) },
      // Graduated overhead: a face turned up mirrors it brighter towards the back.
      { center: [0, 1, 0.1], halfWidth: 0.8, halfHeight: 0.8, intensity: white(2.2), gradient: [0.25, 1.5] },
      { center: [1, 0.3, 0.3], halfWidth: 0.15, halfHeight: 0.9, intensity: white(3.5) },
      { center: [0.2, 0.4, -1], halfWidth: 0.4, halfHeight: 0.3, intensity: white(2.5) },
      {
        center: [0.05, -0.24, 1],
        halfWidth: 0.7,
        halfHeight: 0.2,
        intensity: white(1.4),
        gradient: [0.08, 1],
      },
    ],
  },
  neutral: {
    zenith: white(0.45),
    horizon: white(0.16),
    floor: white(0.26),
    edge: 0.08,
    boxes: [
      { center: [-0.7, 0.8, 0.8], halfWidth: 0.6, halfHeight: 0.6, intensity: white(3.2) },
      { center: [1, 0.4, 0.2], halfWidth: 0.2, halfHeight: 0.8, intensity: white(2.2) },
      { center: [0.1, 0.5, -1], halfWidth: 0.4, halfHeight: 0.3, intensity: white(1.8) },
      {
        center: [0.05, -0.24, 1],
        halfWidth: 0.7,
        halfHeight: 0.2,
        intensity: white(0.8),
        gradient: [0.08, 1],
      },
    ],
  },
  // Gem materials see this instead of the scene's studio: small bright sources in the dark, set
  // around the lens (looked up in view space: x right, y up, z towards the camera).
  stones: {
    zenith: white(STONE_ROOM),
    horizon: white(STONE_ROOM),
    floor: white(STONE_ROOM),
    edge: 0.01,
    boxes: STONE_LIGHTS.map(([roll, offAxis, half, radiance]) => ({
      center: lensDirection(roll, offAxis),
      halfWidth: half,
      halfHeight: half,
      intensity: white(radiance),
    })),
  },
};

/** Softboxes flattened for the hot loop: centre, u axis, v axis, half sizes, rgb, gradient ends. */
const BOX_STRIDE = 16;

const smooth = (t: number): number => (t <= 0 ? 0 : t >= 1 ? 1 : t * t * (3 - 2 * t));

export class Environment {
  private readonly flat: Float64Array;
  private readonly room: RoomLook;
  private readonly cosR: number;
  private readonly sinR: number;
  private readonly intensity: number;
  /** Irradiance SH9 coefficients, rgb interleaved, already convolved with the cosine lobe. */
  private readonly sh = new Float64Array(27);

  constructor(preset: Room, intensity: number, rotationDegrees: number) {
    this.room = ROOMS[preset];
    this.intensity = intensity;
    const a = (rotationDegrees * Math.PI) / 180;
    this.cosR = Math.cos(a);
    this.sinR = Math.sin(a);
    const boxes = this.room.boxes.map((box) => {
      const [x, y, z] = box.center;
      const l = Math.sqrt(x * x + y * y + z * z);
      const cx = x / l,
        cy = y / l,
        cz = z / l;
      // Box axes: horizontal u (perpendicular to the world up), v completing the frame.
      const uy = 0;
      let ux = cz,
        uz = -cx;
      const ul = Math.sqrt(ux * ux + uz * uz);
      if (ul < 1e-3) {
        ux = 1;
        uz = 0;
      } else {
        ux /= ul;
        uz /= ul;
      }
      const vx = cy * uz - cz * uy,
        vy = cz * ux - cx * uz,
        vz = cx * uy - cy * ux;
      const [low, high] = box.gradient ?? [1, 1];
      return [cx, cy, cz, ux, uy, uz, vx, vy, vz, box.halfWidth, box.halfHeight, ...box.intensity, low, high];
    });
    this.flat = Float64Array.from(boxes.flat());
    this.fitIrradiance();
  }

  /**
   * Whether the last radiance() lookup came within half its `footprint` of a softbox's edge ramp
   * (the light changes across the pixel faster than one sample at its centre can stand for), and
   * whether within a whole footprint (a neighbouring pixel's light may differ sharply).
   */
  edgeInPixel = false;
  edgeNearby = false;

  /**
   * Radiance arriving from a direction, seen through a lobe of some roughness; writes rgb to out.
   * The query holds the unit direction (x, y, z), the roughness and the footprint: how far (radians)
   * the direction sweeps across one pixel, for the edge flags. In an array, as doubles passed as
   * arguments to a call this size are boxed.
   */
  radiance(query: Float64Array, out: Float64Array): void {
    const dx = query[0]!,
      dz = query[2]!,
      roughness = query[3]!,
      footprint = query[4]!;
    // Rotate the query into the room instead of rotating the room.
    const x = this.cosR * dx - this.sinR * dz;
    const z = this.sinR * dx + this.cosR * dz;
    const y = query[1]!;
    const room = this.room;
    let r: number, g: number, b: number;
    if (y >= 0) {
      const t = Math.sqrt(y);
      r = room.horizon[0] + (room.zenith[0] - room.horizon[0]) * t;
      g = room.horizon[1] + (room.zenith[1] - room.horizon[1]) * t;
      b = room.horizon[2] + (room.zenith[2] - room.horizon[2]) * t;
    } else {
      // The floor sweep fades into the dark room towards the horizon (softened by roughness).
      const t = smooth(-y / (0.12 + roughness * 0.5));
      r = room.horizon[0] + (room.floor[0] - room.horizon[0]) * t;
      g = room.horizon[1] + (room.floor[1] - room.horizon[1]) * t;
      b = room.horizon[2] + (room.floor[2] - room.horizon[2]) * t;
    }
    const spread = room.edge + 1.6 * roughness * roughness;
    const inv2s = 1 / (2 * spread);
    let inPixel = false,
      nearby = false;
    const f = this.flat;
    for (let k = 0; k < f.length; k += BOX_STRIDE) {
      const facing = x * f[k]! + y * f[k + 1]! + z * f[k + 2]!;
      if (facing <= 0.05) continue;
      const inv = 1 / facing;
      const u = Math.abs((x * f[k + 3]! + y * f[k + 4]! + z * f[k + 5]!) * inv);
      const hw = f[k + 9]! + spread;
      // Each edge ramps from half size - spread to half size + spread (hw); the footprint is
      // measured in the box's plane.
      const reach = footprint * inv,
        half = reach * 0.5;
      if (u >= hw + reach) continue;
      const signedV = (x * f[k + 6]! + y * f[k + 7]! + z * f[k + 8]!) * inv;
      const v = Math.abs(signedV);
      const hh = f[k + 10]! + spread;
      if (v >= hh + reach) continue;
      if (u > hw - 2 * spread - reach || v > hh - 2 * spread - reach) {
        nearby = true;
        if (u < hw + half && v < hh + half && (u > hw - 2 * spread - half || v > hh - 2 * spread - half))
          inPixel = true;
      }
      if (u >= hw || v >= hh) continue;
      const w = smooth((hw - u) * inv2s) * smooth((hh - v) * inv2s);
      const low = f[k + 14]!,
        high = f[k + 15]!;
      if (low === high) {
        r += f[k + 11]! * w;
        g += f[k + 12]! * w;
        b += f[k + 13]! * w;
      } else {
        // A graduated card hides the room behind it, so its dark end is dark.
        const shade = low + (high - low) * (0.5 + (0.5 * signedV) / hh);
        r += (f[k + 11]! * shade - r) * w;
        g += (f[k + 12]! * shade - g) * w;
        b += (f[k + 13]! * shade - b) * w;
      }
    }
    this.edgeInPixel = inPixel;
    this.edgeNearby = nearby;
    out[0] = r * this.intensity;
    out[1] = g * this.intensity;
    out[2] = b * this.intensity;
  }

  /** Cosine-weighted irradiance / π around normal n (i.e. the diffuse radiance of a white surface). */
  irradiance(nx: number, ny: number, nz: number, out: Float64Array | number[]): void {
    const sh = this.sh;
    const b1 = 0.488603 * ny,
      b2 = 0.488603 * nz,
      b3 = 0.488603 * nx;
    const b4 = 1.092548 * nx * ny,
      b5 = 1.092548 * ny * nz,
      b6 = 0.315392 * (3 * nz * nz - 1);
    const b7 = 1.092548 * nx * nz,
      b8 = 0.546274 * (nx * nx - ny * ny);
    const r =
      sh[0]! * 0.282095 +
      sh[3]! * b1 +
      sh[6]! * b2 +
      sh[9]! * b3 +
      sh[12]! * b4 +
      sh[15]! * b5 +
      sh[18]! * b6 +
      sh[21]! * b7 +
      sh[24]! * b8;
    const g =
      sh[1]! * 0.282095 +
      sh[4]! * b1 +
      sh[7]! * b2 +
      sh[10]! * b3 +
      sh[13]! * b4 +
      sh[16]! * b5 +
      sh[19]! * b6 +
      sh[22]! * b7 +
      sh[25]! * b8;
    const b =
      sh[2]! * 0.282095 +
      sh[5]! * b1 +
      sh[8]! * b2 +
      sh[11]! * b3 +
      sh[14]! * b4 +
      sh[17]! * b5 +
      sh[20]! * b6 +
      sh[23]! * b7 +
      sh[26]! * b8;
    out[0] = Math.max(0, r);
    out[1] = Math.max(0, g);
    out[2] = Math.max(0, b);
  }

  /** Projects the room onto SH9 by quadrature and applies the cosine-lobe convolution (Ramamoorthi & Hanrahan). */
  private fitIrradiance(): void {
    const rows = 64,
      cols = 128;
    const sample = new Float64Array(3);
    const query = Float64Array.of(0, 0, 0, 0.3, 0);
    const band = [
      Math.PI,
      (2 * Math.PI) / 3,
      (2 * Math.PI) / 3,
      (2 * Math.PI) / 3,
      Math.PI / 4,
      Math.PI / 4,
      Math.PI / 4,
      Math.PI / 4,
      Math.PI / 4,
    ];
    const acc = new Float64Array(27);
    for (let i = 0; i < rows; i++) {
      const theta = ((i + 0.5) / rows) * Math.PI;
      const dOmega = Math.sin(theta) * (Math.PI / rows) * ((2 * Math.PI) / cols);
      for (let j = 0; j < cols; j++) {
        const phi = ((j + 0.5) / cols) * 2 * Math.PI;
        const x = Math.sin(theta) * Math.cos(phi),
          y = Math.sin(theta) * Math.sin(phi),
          z = Math.cos(theta);
        query[0] = x;
        query[1] = y;
        query[2] = z;
        this.radiance(query, sample);
        const basis = [
          0.282095,
          0.488603 * y,
          0.488603 * z,
          0.488603 * x,
          1.092548 * x * y,
          1.092548 * y * z,
          0.315392 * (3 * z * z - 1),
          1.092548 * x * z,
          0.546274 * (x * x - y * y),
        ];
        for (let k = 0; k < 9; k++) {
          acc[k * 3]! += sample[0]! * basis[k]! * dOmega;
          acc[k * 3 + 1]! += sample[1]! * basis[k]! * dOmega;
          acc[k * 3 + 2]! += sample[2]! * basis[k]! * dOmega;
        }
      }
    }
    for (let k = 0; k < 9; k++)
      for (let c = 0; c < 3; c++) this.sh[k * 3 + c] = (acc[k * 3 + c]! * band[k]!) / Math.PI;
  }
}
