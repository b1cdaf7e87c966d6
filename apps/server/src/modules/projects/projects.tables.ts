import type { ProjectAssetStatus, RenderEngineName } from '@atelier/contracts';
import type { Selectable } from 'kysely';

export interface ProjectsTable {
  id: string;
  user_id: string;
  name: string;
  /** The name lowercased, for sorting by name alike on both dialects. */
  sort_name: string;
  description: string | null;
  folder_id: string | null;
  output_folder_id: string | null;
  category_id: string | null;
  /** JSON of ProjectSettings. */
  settings: string;
  /** The still chosen as the project's cover; null shows the latest still. */
  cover_item_id?: string | null;
  created_at: string;
  updated_at: string;
}

export interface ProjectRendersTable {
  id: string;
  project_id: string;
  user_id: string;
  input_id: string | null;
  /** Kept so a render stays readable after its input file is deleted. */
  input_name: string;
  category_id: string;
  /** JSON of the ProjectVariant rendered, as it was when the render was asked for; null for the project's own finishes. */
  variant?: string | null;
  engine: RenderEngineName;
  status: ProjectAssetStatus;
  progress: number;
  error: string | null;
  attempts: number;
  /** The queue's job for the render, once enqueued. */
  job_id: string | null;
  /** When its current attempt started rendering; null while queued. */
  started_at: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * What an output is: a still, a turntable, the model for 3D viewers and AR (GLB, USDZ), or one frame
 * of a product page's spin. Only stills and turntables are listed among a project's outputs.
 */
export type OutputKind = 'image' | 'video' | 'model' | 'spin';

export interface ProjectOutputsTable {
  item_id: string;
  project_id: string;
  user_id: string;
  render_id: string | null;
  kind: OutputKind;
  /** The content (version) of the model the render read; null for outputs made before it was kept. */
  model_content_id: string | null;
  day: string;
  created_at: string;
}

export interface StudioDefaultsTable {
  user_id: string;
  settings: string;
  updated_at: string;
}

export type ProjectRow = Selectable<ProjectsTable>;
export type RenderRow = Selectable<ProjectRendersTable>;
export type OutputRow = Selectable<ProjectOutputsTable>;

declare module '../../db/schema' {
  interface DB {
    projects: ProjectsTable;
    project_renders: ProjectRendersTable;
    project_outputs: ProjectOutputsTable;
    studio_defaults: StudioDefaultsTable;
  }
}
