import {
  isModelFileName,
  ProjectSettings,
  ProjectSettingsShape,
  type EffectiveScene,
  type GalleryDateList,
  type GalleryDay,
  type ItemResource,
  type ModelVersion,
  type ProjectCover,
  type ProjectDocument,
  type ProjectFileList,
  type ProjectFilesQuery,
  type ProjectList,
  type ProjectListQuery,
  type ProjectRenderList,
  type ProjectResource,
  type ProjectSettingsKey,
  type ProjectVariant,
  type RenderCategory,
  type RenderJobResource,
  type StudioFinish,
} from '@atelier/contracts';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { UserRow } from '../../db/schema';
import type { UnitOfWork } from '../../db/database';
import type { JobQueue } from '../../jobs/job-queue';
import { AppError } from '../../lib/app-error';
import type { Broadcaster } from '../../realtime/realtime.server';
import type { DownloadService } from '../files/download.service';
import {
  folderIdOf,
  ItemAccess,
  notFound,
  ownerActor,
  type Actor,
  type ActorResolver,
} from '../files/files.access';
import { paginate, presentItem } from '../files/files.presenter';
import type { ItemReader } from '../files/files.ports';
import type { AccountLimits, FilesService } from '../files/files.service';
import { sortNameOf } from '../files/new-items';
import type { ItemRow } from '../files/files.tables';
import type { ChunkFields, UploadService } from '../files/upload.service';
import type { ContentReader } from '../files/block-store';
import type { UsersService } from '../users/users.service';
import type { ModelImports } from './model-imports';
import { packMesh, VIEWER_TRIANGLES } from './model-mesh';
import { presentProject, presentRender, type ProjectFacts } from './projects.presenter';
import type { ProjectRow, RenderRow } from './projects.tables';
import type { NewestOutputs, ProjectsRepository } from './projects.repository';
import type { RenderCatalogue } from './render-catalogue';
import { renderJob } from './render.job';
import { trimCharacters } from '../../lib/trim-characters';

/** The form of the project upload: the chunk form's fields and the project. */
export type ProjectChunkFields = ChunkFields & { project_id?: string };

/** A chunk stored by the project upload; `commit` checks the complete form before filing it. */
export interface ReceivedProjectChunk {
  commit(fields: ProjectChunkFields): Promise<ItemResource | null>;
}

/** The name of the folder inside a project folder that receives its renders. */
export const OUTPUT_FOLDER_NAME = 'Output';

const PROJECT_SORT = {
  created_at: 'created_at',
  name: 'sort_name',
  filesize: 'created_at',
  updated_at: 'updated_at',
} as const;

export interface ProjectsServiceDeps {
  projects: ProjectsRepository;
  items: ItemReader;
  files: FilesService;
  uploads: UploadService;
  downloads: DownloadService;
  /** Files' bytes, whatever their layout (the files module's block store). */
  contents: ContentReader;
  limits: AccountLimits;
  users: Pick<UsersService, 'findById'>;
  /** Who the caller is to the items they name: their owner, or a team's member (who may not take them into projects). */
  actors: ActorResolver;
  jobs: JobQueue;
  units: UnitOfWork;
  /** The app's clock: projects are stamped with it. */
  now: () => Date;
  realtime: Broadcaster;
  catalogue: RenderCatalogue;
  imports: ModelImports;
}

/**
 * The projects studio: projects and their settings, the project upload, render runs and the
 * gallery. Every call names the owner it acts for; a project or file of anyone else is a 404.
 */
export class ProjectsService {
  constructor(private readonly deps: ProjectsServiceDeps) {}

  /**
   * Whose projects a call acts on: a `user_id` in the body must be the signed-in user, except that an
   * admin may act for another (existing) user.
   */
  async ownerFor(signedIn: UserRow, userId: string | undefined): Promise<string> {
    if (userId === undefined || userId === signedIn.id) return signedIn.id;
    if (signedIn.role !== 'admin') throw new AppError('forbidden', 'errors.forbidden');
    const owner = await this.deps.users.findById(userId);
    if (!owner) throw notFound();
    return owner.id;
  }

  // ---- projects ----------------------------------------------------------------------------

  async create(
    ownerId: string,
    input: { name: string; description?: string | null },
  ): Promise<ProjectDocument> {
    await this.deps.files.assertMayCreateFolder(ownerActor(ownerId));
    // The project's folder and the project commit together: a project that cannot be made leaves no folder.
    const row = await this.deps.units.transaction(async () => {
      const folder = await this.deps.files.insertFolder(ownerActor(ownerId), null, input.name);
      return this.insertProject(ownerId, input.name, input.description || null, folder.id);
    });
    const data = (await this.present(ownerId, [row]))[0]!;
    return { id: row.id, name: row.name, description: row.description, user_id: row.user_id, data };
  }

  async list(ownerId: string, query: ProjectListQuery): Promise<ProjectList> {
    const page = await this.deps.projects.listProjects(ownerId, {
      sort: PROJECT_SORT[query.sort],
      direction: query.direction,
      limit: query.per_page,
      offset: (query.page - 1) * query.per_page,
      categoryId: query.type,
      status: query.status,
    });
    return {
      data: await this.present(ownerId, page.rows),
      meta: { paginate: paginate(page.total, query.page, query.per_page), root: null },
    };
  }

  /** One project's renders, newest first; `type` narrows to a category, `status` to a state. */
  async renders(ownerId: string, projectId: string, query: ProjectListQuery): Promise<ProjectRenderList> {
    const project = await this.project(ownerId, projectId);
    const page = await this.deps.projects.listRenders(ownerId, project.id, {
      limit: query.per_page,
      offset: (query.page - 1) * query.per_page,
      categoryId: query.type,
      status: query.status,
    });
    return {
      data: page.rows.map(presentRender),
      meta: {
        paginate: paginate(page.total, query.page, query.per_page),
        root: (await this.present(ownerId, [project]))[0]!,
      },
    };
  }

  async project(ownerId: string, id: string): Promise<ProjectRow> {
    const project = folderIdOf(id) ? await this.deps.projects.findProject(ownerId, id) : undefined;
    if (!project) throw notFound();
    return project;
  }

  // ---- settings ----------------------------------------------------------------------------

  async updateSettings(
    ownerId: string,
    projectId: string,
    key: ProjectSettingsKey,
    value: unknown,
  ): Promise<ProjectSettings> {
    await this.project(ownerId, projectId);
    // Each change applies to the settings as the last one left them: the studio sends each key on
    // its own timer, and two read before either wrote lost one of them.
    return this.deps.units.transaction(async () => {
      const project = (await this.deps.projects.lockProject(ownerId, projectId))!;
      const defaults = await this.studioDefaults(ownerId);
      const settings = await this.fitFinish(
        await this.applySetting(parseSettings(project.settings), key, value),
        key,
        defaults.category_id,
      );
      await this.checkScene(settings.category_id, defaults, settings);
      await this.deps.projects.updateProject(ownerId, project.id, {
        settings: JSON.stringify(settings),
        category_id: settings.category_id ?? null,
      });
      return settings;
    });
  }

  async studioDefaults(userId: string): Promise<ProjectSettings> {
    return parseSettings(await this.deps.projects.studioDefaults(userId));
  }

  async updateStudioDefaults(
    userId: string,
    key: ProjectSettingsKey,
    value: unknown,
  ): Promise<ProjectSettings> {
    // As a project's settings: each change applies to what the last one left.
    return this.deps.units.transaction(async () => {
      const stored = parseSettings(await this.deps.projects.lockStudioDefaults(userId));
      const settings = await this.fitFinish(await this.applySetting(stored, key, value), key, undefined);
      await this.checkScene(settings.category_id, settings, {});
      await this.deps.projects.saveStudioDefaults(userId, JSON.stringify(settings));
      return settings;
    });
  }

  /** The merged scene a render of this project would use, for the in-browser viewer. */
  async effectiveScene(ownerId: string, projectId: string, categoryId?: string): Promise<EffectiveScene> {
    const project = await this.project(ownerId, projectId);
    const settings = parseSettings(project.settings);
    const defaults = await this.studioDefaults(ownerId);
    const category = await this.categoryOf(categoryId ?? settings.category_id ?? defaults.category_id);
    return this.sceneOf(category, defaults, settings);
  }

  /** The scene of the user's defaults alone (the category's preset under them), for the studio settings page. */
  async effectiveDefaults(userId: string): Promise<EffectiveScene> {
    const defaults = await this.studioDefaults(userId);
    const category = await this.categoryOf(defaults.category_id);
    return this.sceneOf(category, defaults, {});
  }

  /** What a render in the category would use, with these defaults under these project settings. */
  private async sceneOf(
    category: string,
    defaults: ProjectSettings,
    settings: ProjectSettings,
  ): Promise<EffectiveScene> {
    const { engine, stills, video, scene } = await this.deps.catalogue.runPlan(category, defaults, settings);
    return { data: { category_id: category, engine, stills, video, scene } };
  }

  categories(): Promise<RenderCategory[]> {
    return this.deps.catalogue.categories();
  }

  finishes(): Promise<StudioFinish[]> {
    return this.deps.catalogue.finishes();
  }

  private async applySetting(
    settings: ProjectSettings,
    key: ProjectSettingsKey,
    value: unknown,
  ): Promise<ProjectSettings> {
    const next: Record<string, unknown> = { ...settings };
    if (value === null) {
      delete next[key];
    } else {
      const parsed = ProjectSettingsShape[key].safeParse(value);
      if (!parsed.success)
        throw AppError.invalid('updateValue', parsed.error.issues[0]?.message ?? 'validation.invalid');
      if (key === 'category_id') await this.categoryOf(parsed.data as string);
      next[key] = parsed.data;
    }
    return ProjectSettings.parse(next);
  }

  /**
   * Finishes belong to a category: a finish set is refused unless the category (the settings' own,
   * else `fallbackCategory`, else the default) offers it, and a new category lets go of the finishes
   * it does not offer, so the project falls back to the category's preset instead of a ring in plastic.
   */
  private async fitFinish(
    settings: ProjectSettings,
    key: ProjectSettingsKey,
    fallbackCategory: string | undefined,
  ): Promise<ProjectSettings> {
    const category = await this.categoryOf(settings.category_id ?? fallbackCategory);
    if (key === 'category_id') return this.deps.catalogue.fitting(category, settings);
    if (key === 'variants') {
      await this.checkVariants(category, settings.variants ?? []);
      return settings;
    }
    if (key !== 'materials') return settings;
    const misfits = await this.deps.catalogue.misfits(category, settings.materials);
    if (misfits.length > 0)
      throw new AppError(
        'validation_failed',
        'errors.validation_failed',
        { updateValue: ['validation.finish_category'] },
        { category: (await this.deps.catalogue.categories()).find((c) => c.id === category)!.name },
      );
    return settings;
  }

  /**
   * Every finish of a colourway must be one the category offers, and only a finish that comes in
   * any colour may be given one.
   */
  private async checkVariants(category: string, variants: readonly ProjectVariant[]): Promise<void> {
    const finishes = new Map((await this.deps.catalogue.finishes()).map((f) => [f.id, f]));
    for (const variant of variants) {
      for (const { finish, color } of Object.values(variant.finishes)) {
        const known = finishes.get(finish);
        if (!known || !known.categories.includes(category))
          throw new AppError(
            'validation_failed',
            'errors.validation_failed',
            { updateValue: ['validation.finish_category'] },
            { category: (await this.deps.catalogue.categories()).find((c) => c.id === category)!.name },
          );
        if (color !== undefined && !known.colourable)
          throw AppError.invalid('updateValue', 'validation.variant_colour');
      }
    }
  }

  /** The merged scene must pass the render engine's own checks, so a render never fails on settings. */
  private async checkScene(
    categoryId: string | undefined,
    defaults: ProjectSettings,
    settings: ProjectSettings,
  ): Promise<void> {
    const problem = await this.deps.catalogue.sceneProblem(
      await this.categoryOf(categoryId),
      defaults,
      settings,
    );
    if (problem)
      throw new AppError('validation_failed', 'errors.validation_failed', { updateValue: [problem] });
  }

  /** The category id, checked; the first category (Product) when none is set anywhere. */
  private async categoryOf(id: string | undefined): Promise<string> {
    const categories = await this.deps.catalogue.categories();
    if (id === undefined) return categories[0]!.id;
    if (!categories.some((c) => c.id === id))
      throw AppError.invalid('category_id', 'validation.render_category');
    return id;
  }

  // ---- files -------------------------------------------------------------------------------

  /** Inputs of one project, or outputs of one project or of all of them (`all`). */
  async files(ownerId: string, ref: string, query: ProjectFilesQuery): Promise<ProjectFileList> {
    const page = { limit: query.per_page, offset: (query.page - 1) * query.per_page };
    const project = ref === 'all' ? null : await this.project(ownerId, ref);
    const root = project ? (await this.present(ownerId, [project]))[0]! : null;
    const actor = ownerActor(ownerId);
    if (query.type === 'input') {
      if (!project) throw AppError.invalid('type', 'validation.project_inputs_need_project');
      const inputs = await this.inputsBelow(ownerId, project.folder_id, page);
      const latest = await this.deps.projects.latestRendersOf(
        ownerId,
        inputs.rows.map((r) => r.id),
      );
      const newest = new Map(
        (await this.deps.projects.newestOutputsOf(ownerId, [project.id])).map((n) => [n.input_id, n]),
      );
      const versions = await this.modelVersions(
        ownerId,
        inputs.rows.map((row) => ({
          contentId: newest.get(row.id)?.model_content_id ?? null,
          inputId: row.id,
        })),
      );
      const data = await Promise.all(
        inputs.rows.map(async (row, index) => ({
          ...(await this.item(actor, row)),
          meta: {
            kind: 'input' as const,
            project_id: project.id,
            render: presentOrNull(latest.get(row.id)),
            model_version: versions[index]!,
          },
        })),
      );
      return { data, meta: { paginate: paginate(inputs.total, query.page, query.per_page), root } };
    }
    const kind = query.mimetype === 'png' ? 'image' : query.mimetype === 'mp4' ? 'video' : undefined;
    const outputs = await this.deps.projects.listOutputs(
      ownerId,
      { projectId: project?.id ?? null, kind },
      page,
    );
    const renders = new Map(
      (
        await this.deps.projects.findRenders(
          ownerId,
          outputs.rows.flatMap((r) => (r.output_render_id ? [r.output_render_id] : [])),
        )
      ).map((r) => [r.id, r]),
    );
    const versions = await this.outputVersions(ownerId, outputs.rows, renders);
    const data = await Promise.all(
      outputs.rows.map(async (row, index) => ({
        ...(await this.item(actor, row)),
        meta: {
          kind: 'output' as const,
          project_id: row.output_project_id,
          render: presentOrNull(row.output_render_id ? renders.get(row.output_render_id) : undefined),
          model_version: versions[index]!,
        },
      })),
    );
    return { data, meta: { paginate: paginate(outputs.total, query.page, query.per_page), root } };
  }

  /**
   * One chunk of the project upload, whose fields may come before or after the chunk. Only model
   * files the render engine reads are accepted: the chunk's key repeats the file's name, so that is
   * checked before any byte is stored, and so are the project and the folder when the form names
   * them before the chunk. The complete form is checked again at commit, where a refusal removes
   * the upload. The file goes into the project folder or a folder below it named by parent_id.
   */
  async receiveChunk(
    ownerId: string,
    clientKey: string,
    fieldsBefore: ProjectChunkFields,
    chunk: Readable,
  ): Promise<ReceivedProjectChunk> {
    assertModelName(clientKey, fieldsBefore);
    if (fieldsBefore.project_id !== undefined) await this.uploadFolder(ownerId, fieldsBefore);
    const received = await this.deps.uploads.receive(ownerActor(ownerId), clientKey, fieldsBefore, chunk);
    return {
      commit: async (fields) => {
        let parentId: string;
        try {
          assertModelName(clientKey, fields);
          parentId = await this.uploadFolder(ownerId, fields);
        } catch (refusal) {
          await received.discard();
          throw refusal;
        }
        return received.commit({ ...fields, parent_id: parentId });
      },
    };
  }

  /** The folder a project upload goes into: the project's folder, or parent_id when that is inside it (not its outputs). */
  private async uploadFolder(ownerId: string, fields: ProjectChunkFields): Promise<string> {
    const project = await this.project(ownerId, fields.project_id ?? '');
    if (!project.folder_id || !(await this.deps.items.findOne(ownerId, project.folder_id))?.id)
      throw notFound();
    const parentId = fields.parent_id && folderIdOf(fields.parent_id) ? fields.parent_id : project.folder_id;
    if (parentId !== project.folder_id) await this.assertInsideProject(ownerId, project, parentId);
    return parentId;
  }

  private async assertInsideProject(ownerId: string, project: ProjectRow, folderId: string): Promise<void> {
    const chain = await this.deps.items.ancestorIds(ownerId, folderId);
    if (
      !chain.includes(project.folder_id!) ||
      (project.output_folder_id && chain.includes(project.output_folder_id))
    )
      throw notFound();
  }

  /**
   * A model file of the owner as the viewer draws it (see packMesh), imported the way renders import
   * it: 413 over the engine's size limit, 429 while the owner has enough other imports under way.
   * `signal` stops the import when its client has gone.
   */
  async mesh(ownerId: string, fileId: string, signal: AbortSignal): Promise<Buffer> {
    const file = folderIdOf(fileId) ? await this.deps.items.findOne(ownerId, fileId) : undefined;
    if (!file?.storage_key || file.type !== 'file' || file.deleted_at !== null || !isModelFileName(file.name))
      throw notFound();
    const render = await this.deps.catalogue.load();
    try {
      const model = await this.deps.imports.importFor(
        ownerId,
        { name: file.name, size: file.size, storage_key: file.storage_key },
        { simplifyAbove: VIEWER_TRIANGLES, signal },
      );
      return packMesh(model);
    } catch (error) {
      if (!(error instanceof render.RenderError)) throw error;
      if (error.code === 'too_large') {
        throw new AppError('payload_too_large', 'errors.model_too_large', undefined, {
          limit: Math.floor(render.MAX_MODEL_BYTES / 1048576),
        });
      }
      throw AppError.invalid('id', error.message);
    }
  }

  // ---- models from the owner's files -------------------------------------------------------

  /**
   * Copies model files of the owner's into the project's folder, where its models live. A copy, not
   * a reference: the input list, the viewer and the renders read a project's models from its folder,
   * so moving, renaming or deleting the original leaves the project whole; the copies count in the
   * owner's storage like an upload and are refused together past the quota or while uploads are not
   * allowed.
   */
  async addInputs(ownerId: string, projectId: string, fileIds: readonly string[]): Promise<ItemResource[]> {
    const project = await this.project(ownerId, projectId);
    const sources = await this.modelFiles(ownerId, fileIds);
    const copies = await this.copyModels(ownerId, sources, async () => {
      // Additions to one project take turns, so a copy is named beside the models it already holds.
      await this.deps.projects.lockProject(ownerId, project.id);
      const folder = project.folder_id
        ? await this.deps.items.findOne(ownerId, project.folder_id)
        : undefined;
      if (!folder || folder.deleted_at !== null) throw notFound();
      return folder.id;
    });
    const actor = ownerActor(ownerId);
    return Promise.all(copies.map((copy) => this.item(actor, copy)));
  }

  /** A new project named after a model file of the owner's, holding a copy of it (see addInputs). */
  async createFromFile(ownerId: string, fileId: string): Promise<ProjectDocument> {
    const [source] = await this.modelFiles(ownerId, [fileId]);
    const name = source!.name.replace(/\.[^.]+$/, '') || source!.name;
    let row: ProjectRow | undefined;
    await this.copyModels(ownerId, [source!], async () => {
      const folder = await this.deps.files.insertFolder(ownerActor(ownerId), null, name);
      row = await this.insertProject(ownerId, name, null, folder.id);
      return folder.id;
    });
    const data = (await this.present(ownerId, [row!]))[0]!;
    return { id: row!.id, name: row!.name, description: row!.description, user_id: row!.user_id, data };
  }

  /**
   * The owner's live files of these ids, each a model the engine reads; else 404 (403 for a team's
   * member: a team's models are its owner's to take into projects), or 422 naming `items`.
   */
  private async modelFiles(ownerId: string, ids: readonly string[]): Promise<ItemRow[]> {
    const files = await new ItemAccess(this.deps.items).reachAsOwner(
      await this.deps.actors.of(ownerId, ids),
      ids.map((id) => ({ id, type: 'file' as const })),
      'live',
    );
    if (files.some((file) => !isModelFileName(file.name) || !file.storage_key))
      throw AppError.invalid('items', 'errors.project_input_type');
    return files;
  }

  /**
   * New files with bytes of their own, copied from `sources` into the folder `into` answers (made
   * in the same unit of work): the owner's quota holds the bytes first, the objects are written
   * (recorded with the reservation before their first byte), then the folder and the files commit
   * together; objects of a copy that did not commit go, on release or, after a process killed
   * first, by the upload sweep. A copy of a name the folder holds keeps both (`ring (1).step`).
   */
  private async copyModels(
    ownerId: string,
    sources: readonly ItemRow[],
    into: () => Promise<string>,
  ): Promise<ItemRow[]> {
    await this.assertMayStore(ownerId);
    const bytes = sources.reduce((sum, source) => sum + Number(source.size), 0);
    const reservation = await this.deps.uploads.reserve(ownerId, bytes);
    if (!reservation) throw new AppError('storage_limit_exceeded', 'errors.storage_limit_exceeded');
    // Models made of blocks are copied by naming their blocks (no byte written); the others' bytes
    // are written first, outside the unit of work.
    const written = new Map<string, string>();
    try {
      for (const source of sources) {
        if (await this.deps.contents.isBlocks(source.storage_key!)) continue;
        const { key } = await reservation.put(await this.deps.contents.read(source.storage_key!), {
          contentType: source.mimetype ?? undefined,
        });
        written.set(source.id, key);
      }
      return await reservation.filing(async () => {
        const parentId = await into();
        const now = this.deps.now().toISOString();
        const copies: ItemRow[] = [];
        for (const source of sources) {
          const stored = {
            parentId,
            name: source.name,
            mimetype: source.mimetype,
            size: Number(source.size),
            now,
          };
          const key = written.get(source.id);
          const copy = key
            ? await reservation.file({ ...stored, storageKey: key })
            : await reservation.copy(source.storage_key!, stored);
          // Its blocks went between the look and the unit (collected after a delete): asked again.
          if (!copy) throw new Error(`the blocks of ${source.id} changed while it was copied`);
          copies.push(copy);
        }
        return copies;
      });
    } finally {
      // Deletes the objects written for copies that did not commit.
      await reservation.release();
    }
  }

  // ---- render runs -------------------------------------------------------------------------

  /** Queues one render per model file of the project, in the category; answers the renders. */
  async generate(
    ownerId: string,
    projectId: string,
    categoryId: string,
    variantIds?: readonly string[],
  ): Promise<RenderJobResource[]> {
    const project = await this.project(ownerId, projectId);
    await this.assertMayStore(ownerId);
    const inputs = (await this.inputsBelow(ownerId, project.folder_id)).rows;
    const category = await this.categoryOf(categoryId);
    assertHasModels(inputs);
    return this.queueRenders(ownerId, project, inputs, category, variantIds);
  }

  /**
   * Renders the model files of a folder: into the project the folder belongs to, or into a new
   * project made for the folder (its outputs go to an Output folder inside it).
   */
  async generateForFolder(
    ownerId: string,
    folderRef: string,
    categoryId: string,
  ): Promise<RenderJobResource[]> {
    const folderId = folderIdOf(folderRef);
    if (!folderId) throw notFound();
    const folder = await new ItemAccess(this.deps.items).reachOneAsOwner(
      await this.deps.actors.of(ownerId, [folderId]),
      folderId,
      'live',
      'folder',
    );
    await this.assertMayStore(ownerId);
    const chain = await this.deps.items.ancestorIds(ownerId, folder.id);
    const existing = await this.deps.projects.projectOfFolders(ownerId, chain);
    if (existing?.output_folder_id && chain.includes(existing.output_folder_id)) throw notFound();
    const inside = await this.inputsBelow(ownerId, folder.id);
    const category = await this.categoryOf(categoryId);
    assertHasModels(inside.rows);
    // A project made for the folder exists only with its renders queued.
    return this.deps.units.transaction(async () => {
      const project = existing ?? (await this.insertProject(ownerId, folder.name, null, folder.id));
      return this.queueRenders(ownerId, project, inside.rows, category);
    });
  }

  /**
   * The files a project of this folder renders: every live file below it but those in an Output
   * folder, its own or a project's inside it (a render's GLB is a model, and no input of another).
   */
  private async inputsBelow(
    ownerId: string,
    folderId: string | null,
    page?: { limit: number; offset: number },
  ) {
    const outputFolders = await this.deps.projects.outputFolderIds(ownerId);
    return this.deps.items.liveFilesBelow(ownerId, folderId, outputFolders, page);
  }

  /**
   * Renders and copied models are files the owner stores, as uploads are: refused while the account
   * may not upload (an unpaid metered period, a full storage), before any work is queued.
   */
  private async assertMayStore(ownerId: string): Promise<void> {
    const { restrictions } = await this.deps.limits.of(ownerId);
    if (!restrictions.canUpload)
      throw new AppError('upload_disabled', restrictions.reason ?? 'errors.upload_disabled');
  }

  /** The project with its Output folder, both or neither. */
  private insertProject(
    ownerId: string,
    name: string,
    description: string | null,
    folderId: string,
  ): Promise<ProjectRow> {
    return this.deps.units.transaction(async () => {
      const output = await this.deps.files.insertFolder(ownerActor(ownerId), folderId, OUTPUT_FOLDER_NAME);
      // A new project starts in the owner's default category, else the first (Product), and says so.
      const categoryId = await this.categoryOf((await this.studioDefaults(ownerId)).category_id);
      const now = this.deps.now().toISOString();
      return this.deps.projects.insertProject({
        id: randomUUID(),
        user_id: ownerId,
        name,
        sort_name: sortNameOf(name),
        description,
        folder_id: folderId,
        output_folder_id: output.id,
        category_id: categoryId,
        settings: JSON.stringify({ category_id: categoryId }),
        created_at: now,
        updated_at: now,
      });
    });
  }

  /**
   * Queues a render of each model file, one per colourway asked for (`variantIds`, else every
   * colourway of the project), or one in the project's own finishes when it has none or none is asked.
   */
  private async queueRenders(
    ownerId: string,
    project: ProjectRow,
    files: ItemRow[],
    category: string,
    variantIds?: readonly string[],
  ): Promise<RenderJobResource[]> {
    const models = files.filter((file) => isModelFileName(file.name));
    const defaults = await this.studioDefaults(ownerId);
    const settings = parseSettings(project.settings);
    const { engine } = await this.deps.catalogue.runPlan(category, defaults, settings);
    const variants = variantsToRender(settings.variants ?? defaults.variants ?? [], variantIds);
    const now = this.deps.now().toISOString();
    // The renders and their jobs commit together: no render waits for a job that was never enqueued.
    return this.deps.units.transaction(async () => {
      const renders = await this.deps.projects.insertRenders(
        models.flatMap((file) =>
          variants.map((variant): RenderRow => ({
            id: randomUUID(),
            project_id: project.id,
            user_id: ownerId,
            input_id: file.id,
            input_name: file.name,
            category_id: category,
            // What the colourway was when asked for: a later edit or removal leaves this render as asked.
            variant: variant ? JSON.stringify(variant) : null,
            engine,
            status: 'queued',
            progress: 0,
            error: null,
            attempts: 0,
            job_id: null,
            started_at: null,
            created_at: now,
            updated_at: now,
          })),
        ),
      );
      for (const render of renders) {
        await this.deps.projects.setRenderJob(
          render.id,
          await this.deps.jobs.enqueue(renderJob, { renderId: render.id }),
        );
        await this.deps.units.afterCommit(() =>
          this.deps.realtime.emitToUser(ownerId, 'project.asset', {
            job_id: render.id,
            project_id: project.id,
            status: 'queued',
            progress: 0,
          }),
        );
      }
      return renders.map(presentRender);
    });
  }

  // ---- gallery and zips --------------------------------------------------------------------

  async galleryDates(
    ownerId: string,
    ref: string,
    query: { page: number; per_page: number; search?: string },
  ): Promise<GalleryDateList> {
    const project = ref === 'all' ? null : await this.project(ownerId, ref);
    const days = await this.deps.projects.outputDays(
      ownerId,
      { projectId: project?.id ?? null, search: query.search ? sortNameOf(query.search) : undefined },
      { limit: query.per_page, offset: (query.page - 1) * query.per_page },
    );
    return {
      data: days.rows.map((d) => ({ date: d.day, images: d.images, videos: d.videos })),
      meta: {
        paginate: paginate(days.total, query.page, query.per_page),
        root: project ? (await this.present(ownerId, [project]))[0]! : null,
      },
    };
  }

  async galleryDay(ownerId: string, ref: string, date: string, search?: string): Promise<GalleryDay> {
    const project = ref === 'all' ? null : await this.project(ownerId, ref);
    const outputs = await this.deps.projects.listOutputs(ownerId, {
      projectId: project?.id ?? null,
      day: date,
      search: search ? sortNameOf(search) : undefined,
    });
    const actor = ownerActor(ownerId);
    const renders = new Map(
      (
        await this.deps.projects.findRenders(
          ownerId,
          outputs.rows.flatMap((r) => (r.output_render_id ? [r.output_render_id] : [])),
        )
      ).map((r) => [r.id, r]),
    );
    const versions = new Map(
      (await this.outputVersions(ownerId, outputs.rows, renders)).map((v, i) => [outputs.rows[i]!.id, v]),
    );
    const present = (kind: 'image' | 'video') =>
      Promise.all(
        outputs.rows
          .filter((row) => row.output_kind === kind)
          .map(async (row) => ({
            ...(await this.item(actor, row)),
            meta: {
              kind: 'output' as const,
              project_id: row.output_project_id,
              render: null,
              model_version: versions.get(row.id) ?? null,
            },
          })),
      );
    const zip = `/api/galleryZip?project_id=${project?.id ?? 'all'}&date=${date}`;
    return { data: { date, images: await present('image'), videos: await present('video'), links: { zip } } };
  }

  /** Every output of the project: its output folder, as the files module zips folders. */
  async outputZip(ownerId: string, projectId: string): Promise<{ name: string; archive: Readable }> {
    const project = await this.project(ownerId, projectId);
    if (!project.output_folder_id || !(await this.deps.items.findOne(ownerId, project.output_folder_id)))
      throw notFound();
    const zip = await this.deps.downloads.zip(ownerActor(ownerId), [
      { id: project.output_folder_id, type: 'folder' },
    ]);
    return { ...zip, name: `${safeZipStem(project.name)}-output.zip` };
  }

  async galleryZip(ownerId: string, ref: string, date: string): Promise<{ name: string; archive: Readable }> {
    const project = ref === 'all' ? null : await this.project(ownerId, ref);
    const outputs = await this.deps.projects.listOutputs(ownerId, {
      projectId: project?.id ?? null,
      day: date,
    });
    if (outputs.rows.length === 0) throw notFound();
    const zip = await this.deps.downloads.zip(
      ownerActor(ownerId),
      outputs.rows.map((row) => ({ id: row.id, type: 'file' as const })),
    );
    return { ...zip, name: `${safeZipStem(project?.name ?? 'gallery')}-${date}.zip` };
  }

  // ---- covers ------------------------------------------------------------------------------

  /** Makes one of the project's stills its cover, or (null) lets the latest still be it again. */
  async setCover(ownerId: string, projectId: string, itemId: string | null): Promise<ProjectResource> {
    const project = await this.project(ownerId, projectId);
    if (itemId !== null) {
      const output = await this.deps.projects.findOutput(ownerId, itemId);
      const file = output && (await this.deps.files.view(ownerActor(ownerId), itemId));
      if (!output || output.project_id !== project.id || output.kind !== 'image' || !file || file.deleted_at)
        throw AppError.invalid('item_id', 'validation.project_cover');
    }
    await this.deps.projects.updateProject(ownerId, project.id, { cover_item_id: itemId });
    return (await this.present(ownerId, [await this.project(ownerId, project.id)]))[0]!;
  }

  /** The chosen still while it is live, else the project's latest still; null before any. */
  private async coverOf(ownerId: string, row: ProjectRow): Promise<ProjectCover | null> {
    const actor = ownerActor(ownerId);
    const chosen = row.cover_item_id ? await this.deps.files.view(actor, row.cover_item_id) : undefined;
    const live = chosen && !chosen.deleted_at ? chosen : null;
    const latest = async () =>
      (
        await this.deps.projects.listOutputs(
          ownerId,
          { projectId: row.id, kind: 'image' },
          { limit: 1, offset: 0 },
        )
      ).rows[0];
    const still = live ?? (await latest());
    if (!still) return null;
    const { attributes } = await this.item(actor, still);
    return {
      id: still.id,
      url: attributes.thumbnail?.lg ?? attributes.file_url ?? '',
      chosen: live !== null,
    };
  }

  // ---- model versions --------------------------------------------------------------------

  /**
   * Renders again, each in the category it was last rendered in and with the project's settings as
   * they are now, the models whose newest outputs came from bytes they no longer hold. The new outputs
   * are filed beside the earlier ones, as any re-render's. 422 when every model's outputs are current.
   */
  async rerenderOutdated(ownerId: string, projectId: string): Promise<RenderJobResource[]> {
    const project = await this.project(ownerId, projectId);
    const outdated = await this.outdatedInputs(ownerId, [project]);
    if (outdated.length === 0) throw AppError.invalid('project_id', 'validation.project_outputs_current');
    const categories = [...new Set(outdated.map((input) => input.category_id))];
    return this.deps.units.transaction(async () => {
      const queued: RenderJobResource[] = [];
      for (const category of categories)
        queued.push(
          ...(await this.queueRenders(
            ownerId,
            project,
            outdated.filter((input) => input.category_id === category).map((input) => input.file),
            category,
          )),
        );
      return queued;
    });
  }

  /**
   * The files module's port, inside the unit of work of a replace or a restore: when the file is a
   * model of a project set to re-render on a change (or the owner's studio defaults say so), and its
   * outputs are of other bytes with no render of it waiting, its render is queued in that unit, in
   * the category its newest outputs were rendered in.
   */
  async modelReplaced(file: ItemRow): Promise<void> {
    if (file.type !== 'file' || !isModelFileName(file.name) || !file.parent_id) return;
    const chain = await this.deps.items.ancestorIds(file.user_id, file.parent_id);
    const project = await this.deps.projects.projectOfFolders(file.user_id, chain);
    if (!project || (project.output_folder_id && chain.includes(project.output_folder_id))) return;
    const automatic =
      parseSettings(project.settings).rerender_on_change ??
      (await this.studioDefaults(file.user_id)).rerender_on_change ??
      false;
    if (!automatic) return;
    const newest = (await this.deps.projects.newestOutputsOf(file.user_id, [project.id])).find(
      (n) => n.input_id === file.id,
    );
    // One running read the bytes before this change: the change gets its own render.
    if (!newest || newest.queued) return;
    // The row as the change left it: a restore of the version the outputs show needs no render.
    const changed = await this.deps.items.findOne(file.user_id, file.id);
    if (!changed || changed.content_id === newest.model_content_id) return;
    await this.queueRenders(file.user_id, project, [changed], newest.category_id);
  }

  /**
   * The live models of these projects whose newest outputs were rendered from other bytes than they
   * hold now, none of them waiting for a render (a queued render reads the current bytes). Outputs
   * whose version is not known (made before versions were recorded) count as current.
   */
  private async outdatedInputs(
    ownerId: string,
    projects: readonly ProjectRow[],
  ): Promise<Array<NewestOutputs & { file: ItemRow }>> {
    const candidates = (
      await this.deps.projects.newestOutputsOf(
        ownerId,
        projects.map((p) => p.id),
      )
    ).filter((n) => n.model_content_id !== null && !n.queued && !n.running);
    if (candidates.length === 0) return [];
    const files = new Map(
      (
        await this.deps.items.findMany(
          ownerId,
          candidates.map((n) => n.input_id),
        )
      ).map((file) => [file.id, file]),
    );
    const outdated: Array<NewestOutputs & { file: ItemRow }> = [];
    for (const candidate of candidates) {
      const file = files.get(candidate.input_id);
      if (!file || file.deleted_at !== null || file.content_id === candidate.model_content_id) continue;
      // Still one of the project's models: below its folder, not in its Output folder.
      const project = projects.find((p) => p.id === candidate.project_id)!;
      const chain = file.parent_id ? await this.deps.items.ancestorIds(ownerId, file.parent_id) : [];
      if (!project.folder_id || !chain.includes(project.folder_id)) continue;
      if (project.output_folder_id && chain.includes(project.output_folder_id)) continue;
      outdated.push({ ...candidate, file });
    }
    return outdated;
  }

  /** Each output's model version: the content its render read, compared with what its model holds now. */
  private async outputVersions(
    ownerId: string,
    rows: ReadonlyArray<{ output_model_content_id: string | null; output_render_id: string | null }>,
    renders: ReadonlyMap<string, RenderRow>,
  ): Promise<Array<ModelVersion | null>> {
    return this.modelVersions(
      ownerId,
      rows.map((row) => ({
        contentId: row.output_model_content_id,
        inputId: (row.output_render_id && renders.get(row.output_render_id)?.input_id) || null,
      })),
    );
  }

  /** Versions (content ids) of models (input ids) as the studio presents them, in one read of each kind. */
  private async modelVersions(
    ownerId: string,
    refs: ReadonlyArray<{ contentId: string | null; inputId: string | null }>,
  ): Promise<Array<ModelVersion | null>> {
    const known = refs.filter((ref) => ref.contentId !== null);
    if (known.length === 0) return refs.map(() => null);
    const [savedAt, inputs] = await Promise.all([
      this.deps.items.contentsSavedAt(
        ownerId,
        known.map((ref) => ref.contentId!),
      ),
      this.deps.items.findMany(
        ownerId,
        known.flatMap((ref) => (ref.inputId ? [ref.inputId] : [])),
      ),
    ]);
    const currentOf = new Map(inputs.map((input) => [input.id, input.content_id]));
    return refs.map(({ contentId, inputId }) =>
      contentId === null
        ? null
        : {
            id: contentId,
            created_at: savedAt.get(contentId) ?? null,
            current: inputId !== null && currentOf.get(inputId) === contentId,
          },
    );
  }

  // ---- presenting --------------------------------------------------------------------------

  private async present(ownerId: string, rows: ProjectRow[]) {
    const ids = rows.map((r) => r.id);
    const [renders, outputs, outdated, outputFolders] = await Promise.all([
      this.deps.projects.renderCounts(ownerId, ids),
      this.deps.projects.countOutputs(ownerId, ids),
      this.outdatedInputs(ownerId, rows),
      this.deps.projects.outputFolderIds(ownerId),
    ]);
    return Promise.all(
      rows.map(async (row) => {
        const facts: ProjectFacts = {
          inputs: (
            await this.deps.items.liveFilesBelow(ownerId, row.folder_id, outputFolders, {
              limit: 0,
              offset: 0,
            })
          ).total,
          outputs: outputs.get(row.id) ?? 0,
          renders: renders.get(row.id) ?? { queued: 0, rendering: 0, done: 0, failed: 0 },
          cover: await this.coverOf(ownerId, row),
          outdatedInputs: outdated.filter((input) => input.project_id === row.id).length,
        };
        return presentProject(row, parseSettings(row.settings), facts);
      }),
    );
  }

  private async item(actor: Actor, row: ItemRow): Promise<ItemResource> {
    const view = await this.deps.files.view(actor, row.id);
    return presentItem(view ?? { ...row, items_count: null, is_favourite: false, has_thumbnail: false });
  }
}

/** The name the file is stored under (the chunk's key `<random>-<name>.part` until the name field says) must be a model's. */
function assertModelName(clientKey: string, fields: ProjectChunkFields): void {
  const name = fields.name ?? clientKey.replace(/^[0-9a-z]{16}-/, '').replace(/\.part$/, '');
  if (!isModelFileName(name))
    throw AppError.invalid('chunk', 'errors.project_input_type', 'blacklisted_type');
}

function assertHasModels(files: ItemRow[]): void {
  if (!files.some((file) => isModelFileName(file.name)))
    throw AppError.invalid('project_id', 'validation.project_has_no_inputs');
}

function presentOrNull(render: RenderRow | undefined): RenderJobResource | null {
  return render ? presentRender(render) : null;
}

/**
 * The colourways a render is asked for, by id (all when `ids` is absent); `[null]` (the project's
 * own finishes) when there are none or none is asked for. An id the project lacks is refused.
 */
function variantsToRender(
  variants: readonly ProjectVariant[],
  ids: readonly string[] | undefined,
): Array<ProjectVariant | null> {
  if (ids === undefined) return variants.length > 0 ? [...variants] : [null];
  const chosen = ids.map((id) => variants.find((variant) => variant.id === id));
  if (chosen.some((variant) => variant === undefined))
    throw AppError.invalid('variants', 'validation.variant_unknown');
  return chosen.length > 0 ? [...new Set(chosen as ProjectVariant[])] : [null];
}

/** Stored settings, tolerating keys a later version no longer knows. */
export function parseSettings(text: string | undefined): ProjectSettings {
  if (!text) return {};
  const parsed = ProjectSettings.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : {};
}

export function safeZipStem(name: string): string {
  return trimCharacters(name.replace(/[^\p{L}\p{N}._-]+/gu, '-'), '-', 'both') || 'project';
}
