import type { CameraAngle, Scene } from '../types';
import { material, type MaterialName } from './materials';

export interface Category {
  id: string;
  name: string;
  description: string;
  scene: Scene;
  /** The finishes a project of the category may choose, in the order the studio offers them. */
  finishes: MaterialName[];
}

/**
 * Camera names are what a person calls the view, as a lower-case English slug: output files are
 * named by them (`ring-three-quarter-back.png`) and the studio translates them for its labels.
 */
const camera = (name: string, azimuth: number, elevation: number, fov = 30): CameraAngle => ({
  name,
  azimuth,
  elevation,
  fov,
});

// Parts whose names say they are stones get the gem finish in the jewellery categories.
const GEM_PARTS = [
  { match: 'gem|stone|diamond|brilliant|crystal|ruby|sapphire|emerald|zircon', material: material('gem') },
];

const jewelleryBase = {
  materials: { '*': material('yellow-gold') },
  materialRules: GEM_PARTS,
  useSourceColors: false,
  environment: { preset: 'jewellery', intensity: 1, rotation: 0 },
  background: { kind: 'gradient', top: '#ffffff', bottom: '#ece8e3' },
  resolution: { width: 2048, height: 2048 },
  turntable: { seconds: 8, fps: 30, axis: 'y', elevation: 22 },
  margin: 0.14,
  groundShadow: true,
  exposure: 1,
} as const satisfies Omit<Scene, 'categoryId' | 'cameras'>;

const JEWELLERY_FINISHES: MaterialName[] = [
  'yellow-gold',
  'white-gold',
  'rose-gold',
  'silver',
  'platinum',
  'gem',
  'ruby',
  'sapphire',
  'emerald',
];

const PRODUCT: Category = {
  id: 'product',
  name: 'Product',
  description:
    'Consumer products on a light grey studio sweep, keeping the colours of the file (glossy plastic otherwise).',
  finishes: [
    'plastic-matte',
    'plastic-glossy',
    'painted-metal',
    'anodised-aluminium',
    'brushed-aluminium',
    'brushed-steel',
    'chrome',
    'rubber',
    'glass',
    'wood',
  ],
  scene: {
    categoryId: 'product',
    cameras: [
      camera('three-quarter-front', 35, 22, 28),
      camera('front', 0, 8, 28),
      camera('side', 90, 8, 28),
      camera('three-quarter-back', 215, 22, 28),
      camera('top', 25, 60, 28),
      camera('three-quarter-left', -35, 22, 28),
    ],
    materials: { '*': material('plastic-glossy') },
    materialRules: [],
    useSourceColors: true,
    environment: { preset: 'studio', intensity: 1, rotation: 0 },
    background: { kind: 'gradient', top: '#f4f5f7', bottom: '#dfe2e6' },
    resolution: { width: 2048, height: 2048 },
    turntable: { seconds: 8, fps: 30, axis: 'y', elevation: 20 },
    margin: 0.12,
    groundShadow: true,
    exposure: 1,
  },
};

// Product comes first: it is what a new project renders as until another category is chosen.
const CATEGORIES: Category[] = [
  PRODUCT,
  {
    id: 'mechanical',
    name: 'Mechanical part',
    description:
      'Machined and cast parts in brushed steel (or the colours of the file) on a cool grey background.',
    finishes: [
      'brushed-steel',
      'brushed-aluminium',
      'anodised-aluminium',
      'chrome',
      'brass',
      'copper',
      'painted-metal',
      'plastic-matte',
      'plastic-glossy',
      'rubber',
    ],
    scene: {
      categoryId: 'mechanical',
      cameras: [
        camera('isometric', 45, 30, 26),
        // Just above the horizon: dead side-on shows tooth flanks as flat bars.
        camera('front', 0, 8, 26),
        camera('right', 90, 8, 26),
        camera('top', 0, 89, 26),
        camera('isometric-back', 225, 30, 26),
        camera('left', -90, 10, 26),
      ],
      materials: { '*': material('brushed-steel') },
      materialRules: [],
      useSourceColors: true,
      environment: { preset: 'neutral', intensity: 1, rotation: 0 },
      background: { kind: 'gradient', top: '#e9edf2', bottom: '#c9d0d8' },
      resolution: { width: 2048, height: 2048 },
      turntable: { seconds: 8, fps: 30, axis: 'y', elevation: 25 },
      margin: 0.1,
      groundShadow: true,
      exposure: 1,
    },
  },
  {
    id: 'ring',
    name: 'Ring',
    description: 'Rings on a seamless white sweep, yellow gold by default with gem-named parts as stones.',
    finishes: JEWELLERY_FINISHES,
    scene: {
      ...structuredClone(jewelleryBase),
      categoryId: 'ring',
      cameras: [
        camera('three-quarter-front', 35, 24),
        camera('front', 0, 8),
        camera('side', 90, 10),
        camera('top', 20, 62),
        camera('three-quarter-back', 215, 26),
        camera('low-angle', -40, 6),
      ],
    },
  },
  {
    id: 'pendant',
    name: 'Pendant',
    description: 'Pendants and charms seen mostly face-on, yellow gold with gem-named parts as stones.',
    finishes: JEWELLERY_FINISHES,
    scene: {
      ...structuredClone(jewelleryBase),
      categoryId: 'pendant',
      cameras: [
        // A few degrees off face-on, so a flat polished face mirrors a falloff instead of one even tone.
        camera('front', 8, 14),
        camera('three-quarter-front', 30, 18),
        camera('side', 80, 10),
        camera('top', 0, 60),
        camera('three-quarter-left', -30, 18),
        camera('back', 180, 12),
      ],
    },
  },
  {
    id: 'earrings',
    name: 'Earrings',
    description: 'Earrings and studs framed close, white gold by default with gem-named parts as stones.',
    finishes: JEWELLERY_FINISHES,
    scene: {
      ...structuredClone(jewelleryBase),
      categoryId: 'earrings',
      materials: { '*': material('white-gold') },
      // White metal on a white sweep loses its outline; a slightly deeper backdrop keeps it.
      background: { kind: 'gradient', top: '#f2f0ed', bottom: '#dcd8d2' },
      cameras: [
        camera('three-quarter-front', 25, 16),
        camera('front', 0, 10),
        camera('side', 90, 10),
        camera('top', 10, 58),
        camera('other-side', -90, 12),
        camera('three-quarter-back', 200, 20),
      ],
    },
  },
  {
    id: 'bracelet',
    name: 'Bracelet',
    description: 'Bracelets and bangles from a higher angle that shows the full band, rose gold by default.',
    finishes: JEWELLERY_FINISHES,
    scene: {
      ...structuredClone(jewelleryBase),
      categoryId: 'bracelet',
      materials: { '*': material('rose-gold') },
      turntable: { seconds: 8, fps: 30, axis: 'y', elevation: 32 },
      // A thin band fills little of a square frame: crop closer.
      margin: 0.08,
      cameras: [
        camera('three-quarter-front', 30, 34),
        camera('front', 0, 15),
        camera('top', 0, 75),
        camera('side', 90, 20),
        camera('three-quarter-back', 210, 30),
        camera('low-angle', -35, 10),
      ],
    },
  },
];

/** The categories a project can pick, for GET /api/projects/categories. */
export function listCategories(): Array<Pick<Category, 'id' | 'name' | 'description'>> {
  return CATEGORIES.map(({ id, name, description }) => ({ id, name, description }));
}

export function findCategory(id: string): Category | undefined {
  return CATEGORIES.find((c) => c.id === id);
}
