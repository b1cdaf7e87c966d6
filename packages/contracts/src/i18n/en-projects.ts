/** Strings of the projects studio: server answers and render failures, then the web screens. */
export const enProjects: Record<string, string> = {
  // Server answers
  'errors.project_input_type': 'Only 3D and CAD models can go into a project: STEP, IGES, BREP, STL, OBJ, PLY, glTF, GLB or 3MF.',
  'validation.project_has_no_inputs': 'There is no model to render here yet. Upload a STEP, IGES, STL, OBJ, PLY, glTF or 3MF file first.',
  'validation.render_category': 'Choose one of the render categories.',
  'validation.project_inputs_need_project': 'Inputs belong to one project; name it.',
  'validation.date': 'Use a date like 2024-05-31.',
  'projects.render_error.input_gone': 'The input file was deleted before it could be rendered.',
  'projects.render_error.folder_gone': 'The project folder was deleted, so there is nowhere to store the renders.',
};
