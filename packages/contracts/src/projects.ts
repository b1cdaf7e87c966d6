import { z } from 'zod';
import { ItemResource } from './files';
import { ProjectAssetStatus } from './realtime';
import { ListQuery, Paginate } from './resource';

export const RenderEngineName = z.enum(['draft', 'studio']);
export type RenderEngineName = z.infer<typeof RenderEngineName>;

const finite = z.number().finite();
const hexColor = z.string().regex(/^#([0-9a-f]{3}|[0-9a-f]{6})$/i, 'validation.color');
const unit = finite.min(0).max(1);

export const StudioMaterial = z.object({
  baseColor: z.tuple([unit, unit, unit]),
  metalness: unit,
  roughness: unit,
  transmission: unit.optional(),
  ior: finite.min(1).max(3).optional(),
  clearcoat: unit.optional(),
  /** Brushed metal: how far reflections stretch across the brushing. */
  anisotropy: unit.optional(),
});
export type StudioMaterial = z.infer<typeof StudioMaterial>;

export const StudioBackground = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('color'), color: hexColor }),
  z.object({ kind: z.literal('gradient'), top: hexColor, bottom: hexColor }),
  z.object({ kind: z.literal('transparent') }),
]);
export type StudioBackground = z.infer<typeof StudioBackground>;

export const StudioCamera = z.object({
  name: z.string().trim().min(1).max(40),
  azimuth: finite.min(-360).max(360),
  elevation: finite.min(-89.9).max(89.9),
  fov: finite.min(5).max(100),
  /** How much closer than the framing that fits the margin (2 = twice as close); 1 when absent. */
  zoom: finite.min(0.25).max(4).optional(),
});
export type StudioCamera = z.infer<typeof StudioCamera>;

/** A variant's finish for one part slot: a finish of the category, in a colour where the finish comes in any. */
export const VariantFinish = z.object({
  finish: z.string().min(1).max(64),
  color: hexColor.optional(),
});
export type VariantFinish = z.infer<typeof VariantFinish>;

/**
 * A colourway: the same model in other finishes (yellow, white and rose gold; ruby or sapphire
 * stones; plastic colours), rendered as a set of its own. `finishes` maps part or material slots
 * (as `materials` does, '*' for every part) to finishes; `id` names its outputs (ring-front-rose-gold.png).
 */
export const ProjectVariant = z.object({
  id: z
    .string()
    .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'validation.variant_id')
    .max(40, 'validation.too_long'),
  name: z.string().trim().min(1, 'validation.required').max(60, 'validation.too_long'),
  finishes: z
    .record(z.string().min(1).max(64), VariantFinish)
    .refine((finishes) => Object.keys(finishes).length > 0, 'validation.variant_finishes')
    .refine((finishes) => Object.keys(finishes).length <= 16, 'validation.too_long'),
});
export type ProjectVariant = z.infer<typeof ProjectVariant>;

/**
 * What a project (or a user's studio defaults) may set, one key at a time through updateKey /
 * updateValue. The scene keys are fields of the render engine's Scene and override the category's
 * preset; the server also checks the merged scene with the engine's own schema.
 */
export const ProjectSettingsShape = {
  category_id: z.string().min(1).max(64),
  engine: RenderEngineName,
  /** Stills per input (0 for video only). */
  stills: z.number().int().min(0).max(12),
  /** Whether a turntable video is made. */
  video: z.boolean(),
  materials: z.record(z.string().min(1).max(64), StudioMaterial),
  background: StudioBackground,
  cameras: z.array(StudioCamera).min(1).max(12),
  resolution: z.object({
    width: z.number().int().min(16).max(8192),
    height: z.number().int().min(16).max(8192),
  }),
  turntable: z
    .object({
      seconds: finite.min(1).max(60),
      fps: z.number().int().min(1).max(60),
      elevation: finite.min(-89.9).max(89.9),
    })
    .partial(),
  margin: finite.min(0).max(0.45),
  groundShadow: z.boolean(),
  exposure: finite.min(0.05).max(20),
  /** Whether a model that gets new bytes (a new version, or one restored) is rendered again by itself. */
  rerender_on_change: z.boolean(),
  /** Colourways: each is rendered as a set of its own, named by its id. */
  variants: z
    .array(ProjectVariant)
    .max(12)
    .refine(
      (variants) => new Set(variants.map((v) => v.id)).size === variants.length,
      'validation.variant_unique',
    ),
} as const;

export const ProjectSettings = z.object(ProjectSettingsShape).partial();
export type ProjectSettings = z.infer<typeof ProjectSettings>;
export type ProjectSettingsKey = keyof typeof ProjectSettingsShape;
export const ProjectSettingsKey = z.enum(
  Object.keys(ProjectSettingsShape) as [ProjectSettingsKey, ...ProjectSettingsKey[]],
);

/** The keys that are fields of the render Scene (the rest steer the run: category, engine, outputs). */
export const SCENE_SETTING_KEYS = [
  'materials',
  'background',
  'cameras',
  'resolution',
  'turntable',
  'margin',
  'groundShadow',
  'exposure',
] as const;

/** `null` clears the key, so the category's preset (or the studio default) applies again. */
export const UpdateSettingsBody = z.object({
  updateKey: ProjectSettingsKey,
  updateValue: z.unknown(),
});

export const UpdateProjectSettingsBody = UpdateSettingsBody.extend({
  project_id: z.string().max(64),
  user_id: z.string().max(64).optional(),
});

export const CreateProjectBody = z.object({
  project_name: z.string().trim().min(1, 'validation.required').max(120, 'validation.too_long'),
  description: z.string().trim().max(2000, 'validation.too_long').nullish(),
  user_id: z.string().max(64).optional(),
});
export type CreateProjectBody = z.infer<typeof CreateProjectBody>;

export const GenerateAssetsBody = z.object({
  project_id: z.string().max(64),
  category_id: z.string().min(1).max(64),
  user_id: z.string().max(64).optional(),
  /** Which of the project's colourways to render (by id); all of them when absent, none (its own finishes) when empty. */
  variants: z.array(z.string().max(40)).max(12).optional(),
});
export const FileGenerateAssetsBody = z.object({
  folder_id: z.string().max(64),
  category_id: z.string().min(1).max(64),
  user_id: z.string().max(64).optional(),
});

/** Model files of the owner's, copied into the project (at most a picker's page at a time). */
export const AddProjectInputsBody = z.object({
  items: z.array(z.string().max(64)).min(1, 'validation.required').max(100),
});
export const AddedProjectInputs = z.object({ data: z.array(ItemResource) });
export type AddedProjectInputs = z.infer<typeof AddedProjectInputs>;

/** A model file of the owner's that a new project is made from (named after it, holding a copy). */
export const ProjectFromFileBody = z.object({ file_id: z.string().max(64) });

export const RenderCounts = z.object({
  queued: z.number().int(),
  rendering: z.number().int(),
  done: z.number().int(),
  failed: z.number().int(),
});
export type RenderCounts = z.infer<typeof RenderCounts>;

export const ProjectCover = z.object({
  /** The still's file. */
  id: z.string(),
  /** Where its picture is read: its large thumbnail once made, else the file. */
  url: z.string(),
  /** Chosen with "Use as cover", rather than the latest still. */
  chosen: z.boolean(),
});
export type ProjectCover = z.infer<typeof ProjectCover>;

export const ProjectResource = z.object({
  id: z.string(),
  type: z.literal('project'),
  attributes: z.object({
    name: z.string(),
    description: z.string().nullable(),
    user_id: z.string(),
    /** The project's folder in the owner's files (inputs) and its output folder inside it. */
    folder_id: z.string().nullable(),
    output_folder_id: z.string().nullable(),
    settings: ProjectSettings,
    inputs: z.number().int(),
    outputs: z.number().int(),
    renders: RenderCounts,
    /** The picture its card shows: the still chosen as cover, else its latest still; null before any. */
    cover: ProjectCover.nullable(),
    /**
     * Its models whose newest outputs were rendered from bytes they no longer hold (a new version was
     * saved or an older one restored since), with no render of them waiting: what a re-render redoes.
     */
    outdated_inputs: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  }),
});
export type ProjectResource = z.infer<typeof ProjectResource>;

/** `POST /api/projects/{id}/rerender`: the owner's id, as the other studio calls take it (an admin may act for another). */
export const RerenderProjectBody = z.object({ user_id: z.string().max(64).optional() });

/** `POST /api/projects/{id}/cover`: one of the project's stills as its cover, or null for the latest. */
export const SetProjectCoverBody = z.object({ item_id: z.string().max(64).nullable() });
export const ProjectResourceDocument = z.object({ data: ProjectResource });
/** The description's project `{ id, name, description, user_id }`, with the resource beside it. */
export const ProjectDocument = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  user_id: z.string(),
  data: ProjectResource,
});
export type ProjectDocument = z.infer<typeof ProjectDocument>;

/** One render: an input file rendered in one category. Its id is the `job_id` of project.asset events. */
export const RenderJobResource = z.object({
  id: z.string(),
  type: z.literal('job'),
  attributes: z.object({
    name: z.literal('projects.render'),
    project_id: z.string(),
    input_id: z.string().nullable(),
    input_name: z.string(),
    category_id: z.string(),
    /** The colourway rendered, as it was named when the render was asked for; null for the project's own finishes. */
    variant: z.object({ id: z.string(), name: z.string() }).nullable().optional(),
    engine: RenderEngineName,
    status: ProjectAssetStatus,
    progress: z.number().int(),
    error: z.string().nullable(),
    attempts: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  }),
});
export type RenderJobResource = z.infer<typeof RenderJobResource>;
export const RenderJobList = z.object({ data: z.array(RenderJobResource) });
export type RenderJobList = z.infer<typeof RenderJobList>;

/**
 * Where one project's unfinished renders stand: its batch (the renders made since the oldest one
 * still unfinished), how many of them have ended, and, while some wait, the place of its first one
 * among every render queued on the instance and the seconds until the batch should be done (from
 * how long recent renders of the same categories took; null before any finished).
 */
export const RenderQueueEntry = z.object({
  project_id: z.string(),
  project_name: z.string(),
  total: z.number().int(),
  ended: z.number().int(),
  rendering: z.number().int(),
  queued: z.number().int(),
  position: z.number().int().nullable(),
  estimate_seconds: z.number().int().nullable(),
});
export type RenderQueueEntry = z.infer<typeof RenderQueueEntry>;
export const RenderQueue = z.object({ data: z.array(RenderQueueEntry) });
export type RenderQueue = z.infer<typeof RenderQueue>;

export const ProjectListQuery = ListQuery.extend({
  /** A render category: projects set to it, or renders of it inside one project. */
  type: z.string().max(64).optional(),
  /** A render status: projects with a render in it, or renders in it inside one project. */
  status: ProjectAssetStatus.optional(),
});
export type ProjectListQuery = z.infer<typeof ProjectListQuery>;

export const ProjectList = z.object({
  data: z.array(ProjectResource),
  meta: z.object({ paginate: Paginate, root: z.null() }),
});
export type ProjectList = z.infer<typeof ProjectList>;
export const ProjectRenderList = z.object({
  data: z.array(RenderJobResource),
  meta: z.object({ paginate: Paginate, root: ProjectResource }),
});
export type ProjectRenderList = z.infer<typeof ProjectRenderList>;

export const ProjectFileKind = z.enum(['input', 'output']);
export type ProjectFileKind = z.infer<typeof ProjectFileKind>;

export const ProjectFilesQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(500).default(50),
  /** Inputs (model files) or outputs (renders); outputs by default, inputs need a project. */
  type: ProjectFileKind.default('output'),
  mimetype: z.enum(['png', 'mp4']).optional(),
});
export type ProjectFilesQuery = z.infer<typeof ProjectFilesQuery>;

/**
 * A version of a project's model (its id is the version's, as GET /api/files/{id}/versions lists it):
 * when it was saved (null once it is no longer kept) and whether it is the model's current bytes.
 */
export const ModelVersion = z.object({
  id: z.string(),
  created_at: z.string().nullable(),
  current: z.boolean(),
});
export type ModelVersion = z.infer<typeof ModelVersion>;

/** A project file: the files module's resource plus where it stands in the studio. */
export const ProjectFileResource = ItemResource.extend({
  meta: z.object({
    kind: ProjectFileKind,
    project_id: z.string(),
    /** Inputs: the latest render of the file; outputs: the render that made it. */
    render: RenderJobResource.nullable(),
    /**
     * Outputs: the version of the model they were rendered from; inputs: the version their newest
     * outputs came from. Null when not known (outputs made before versions were recorded) or none.
     */
    model_version: ModelVersion.nullable(),
  }),
});
export type ProjectFileResource = z.infer<typeof ProjectFileResource>;
export const ProjectFileList = z.object({
  data: z.array(ProjectFileResource),
  meta: z.object({ paginate: Paginate, root: ProjectResource.nullable() }),
});
export type ProjectFileList = z.infer<typeof ProjectFileList>;

export const ProjectSettingsDocument = z.object({ data: ProjectSettings });

export const RenderCategory = z.object({ id: z.string(), name: z.string(), description: z.string() });
export const RenderCategoryList = z.object({ data: z.array(RenderCategory) });
export type RenderCategory = z.infer<typeof RenderCategory>;

/**
 * Named finishes the studio offers for the materials setting: the categories that offer each, and
 * whether it comes in any colour (a plastic, a paint) or is defined by its own (gold, steel).
 */
export const StudioFinish = z.object({
  id: z.string(),
  material: StudioMaterial,
  colourable: z.boolean(),
  categories: z.array(z.string()),
});
export type StudioFinish = z.infer<typeof StudioFinish>;
export const StudioFinishList = z.object({ data: z.array(StudioFinish) });

/**
 * The scene a project renders with (category preset, studio defaults, project settings merged and
 * checked), so the in-browser viewer frames the model the way the renders will.
 */
export const EffectiveScene = z.object({
  data: z.object({
    category_id: z.string(),
    engine: RenderEngineName,
    stills: z.number().int(),
    video: z.boolean(),
    scene: z.object({
      cameras: z.array(StudioCamera),
      materials: z.record(z.string(), StudioMaterial),
      background: StudioBackground,
      resolution: z.object({ width: z.number(), height: z.number() }),
      turntable: z.object({ seconds: z.number(), fps: z.number(), elevation: z.number() }),
      margin: z.number(),
      groundShadow: z.boolean(),
      exposure: z.number().optional(),
    }),
  }),
});
export type EffectiveScene = z.infer<typeof EffectiveScene>;
export const EffectiveSceneQuery = z.object({ category_id: z.string().max(64).optional() });

export const GalleryQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(10),
  search: z.string().trim().max(255).optional(),
});
export const GalleryDate = z.object({
  date: z.string(),
  images: z.number().int(),
  videos: z.number().int(),
});
export const GalleryDateList = z.object({
  data: z.array(GalleryDate),
  meta: z.object({ paginate: Paginate, root: ProjectResource.nullable() }),
});
export type GalleryDateList = z.infer<typeof GalleryDateList>;

export const GalleryDataQuery = z.object({
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'validation.date'),
  search: z.string().trim().max(255).optional(),
});
/** One date of the gallery: its images, videos and links (the zip of the day). */
export const GalleryDay = z.object({
  data: z.object({
    date: z.string(),
    images: z.array(ProjectFileResource),
    videos: z.array(ProjectFileResource),
    links: z.object({ zip: z.string() }),
  }),
});
export type GalleryDay = z.infer<typeof GalleryDay>;

export const OutputZipQuery = z.object({ project_id: z.string().max(64) });
export const GalleryZipQuery = z.object({
  project_id: z.string().max(64),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'validation.date'),
});
