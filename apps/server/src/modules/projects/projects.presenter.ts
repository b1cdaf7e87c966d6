import { ProjectVariant } from '@atelier/contracts';
import type {
  ProjectCover,
  ProjectResource,
  ProjectSettings,
  RenderCounts,
  RenderJobResource,
} from '@atelier/contracts';
import type { ProjectRow, RenderRow } from './projects.tables';

/** What a project resource reports beyond its row. */
export interface ProjectFacts {
  inputs: number;
  outputs: number;
  renders: RenderCounts;
  cover: ProjectCover | null;
  /** Models whose newest outputs are of an older version (see ProjectsService.outdatedInputs). */
  outdatedInputs: number;
}

export function presentProject(
  row: ProjectRow,
  settings: ProjectSettings,
  facts: ProjectFacts,
): ProjectResource {
  return {
    id: row.id,
    type: 'project',
    attributes: {
      name: row.name,
      description: row.description,
      user_id: row.user_id,
      folder_id: row.folder_id,
      output_folder_id: row.output_folder_id,
      settings,
      inputs: facts.inputs,
      outputs: facts.outputs,
      renders: facts.renders,
      cover: facts.cover,
      outdated_inputs: facts.outdatedInputs,
      created_at: row.created_at,
      updated_at: row.updated_at,
    },
  };
}

export function presentRender(row: RenderRow): RenderJobResource {
  return {
    id: row.id,
    type: 'job',
    attributes: {
      name: 'projects.render',
      project_id: row.project_id,
      input_id: row.input_id,
      input_name: row.input_name,
      category_id: row.category_id,
      variant: variantOf(row),
      engine: row.engine,
      status: row.status,
      progress: Number(row.progress),
      error: row.error,
      attempts: Number(row.attempts),
      created_at: row.created_at,
      updated_at: row.updated_at,
    },
  };
}

/** The colourway a render was asked for, as stored with it; null for the project's own finishes. */
export function storedVariant(row: Pick<RenderRow, 'variant'>): ProjectVariant | null {
  return row.variant ? ProjectVariant.parse(JSON.parse(row.variant)) : null;
}

function variantOf(row: RenderRow): { id: string; name: string } | null {
  const variant = storedVariant(row);
  return variant && { id: variant.id, name: variant.name };
}
