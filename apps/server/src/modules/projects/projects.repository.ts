import type { ProjectAssetStatus } from '@atelier/contracts';
import { sql, type SqlBool } from 'kysely';
import type { Database } from '../../db/database';
import type { ItemReader } from '../files/files.ports';
import type { ItemRow } from '../files/files.tables';
import type { OutputKind, OutputRow, ProjectRow, ProjectsTable, RenderRow } from './projects.tables';

export type ProjectSort = 'created_at' | 'sort_name' | 'updated_at';

export interface ProjectPageRequest {
  sort: ProjectSort;
  direction: 'asc' | 'desc';
  limit: number;
  offset: number;
  /** Projects whose settings name this category. */
  categoryId?: string;
  /** Projects with at least one render in this status. */
  status?: ProjectAssetStatus;
}

export interface Page<T> {
  rows: T[];
  total: number;
}

/** The outputs listed and counted as a project's: the model files and spin frames serve its product page. */
const LISTED_OUTPUTS: OutputKind[] = ['image', 'video'];

export interface OutputFilter {
  projectId: string | null;
  kind?: OutputKind;
  day?: string;
  /** Lowercased text the output's file name or its project's name contains. */
  search?: string;
}

/** An output with the input and the colourway (JSON, null for the project's own) of its render. */
export type ProductOutput = OutputRow & { input_id: string | null; variant: string | null | undefined };

/** Where the newest outputs of one input of a project come from (see newestOutputsOf). */
export interface NewestOutputs {
  project_id: string;
  input_id: string;
  model_content_id: string | null;
  category_id: string;
  /** A render of the input waits in the queue: it will read the bytes the input holds when it starts. */
  queued: boolean;
  /**
   * A render of the input runs, with the bytes it read when it started: a re-render asked for meanwhile
   * waits for its outputs (which count as outdated once it ends, if the bytes changed since) rather
   * than rendering the same bytes twice.
   */
  running: boolean;
}

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Projects, renders, outputs and studio defaults. Every query names the owner it reads. Outputs are
 * files: whether one is live, and its name, the files module answers through its port.
 */
export class ProjectsRepository {
  constructor(
    private readonly database: Database,
    private readonly now: () => Date,
    private readonly items: Pick<ItemReader, 'findMany' | 'rowsWithLiveItem'>,
  ) {}

  private get db() {
    return this.database.db;
  }

  // ---- projects ----------------------------------------------------------------------------

  insertProject(row: ProjectsTable): Promise<ProjectRow> {
    return this.db.insertInto('projects').values(row).returningAll().executeTakeFirstOrThrow();
  }

  findProject(ownerId: string, id: string): Promise<ProjectRow | undefined> {
    return this.db
      .selectFrom('projects')
      .selectAll()
      .where('user_id', '=', ownerId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** The owner's project whose folder is one of `folderIds` (a folder and its ancestors), nearest first. */
  async projectOfFolders(ownerId: string, folderIds: readonly string[]): Promise<ProjectRow | undefined> {
    if (folderIds.length === 0) return undefined;
    const rows = await this.db
      .selectFrom('projects')
      .selectAll()
      .where('user_id', '=', ownerId)
      .where('folder_id', 'in', folderIds)
      .execute();
    return folderIds.map((id) => rows.find((r) => r.folder_id === id)).find(Boolean);
  }

  /** The owner's project whose folder, or output folder, is this one. */
  projectOfFolder(ownerId: string, folderId: string): Promise<ProjectRow | undefined> {
    return this.db
      .selectFrom('projects')
      .selectAll()
      .where('user_id', '=', ownerId)
      .where((eb) => eb.or([eb('folder_id', '=', folderId), eb('output_folder_id', '=', folderId)]))
      .executeTakeFirst();
  }

  /** Every output of a project made by a render, with the render's input and colourway, newest first. */
  productOutputs(ownerId: string, projectId: string): Promise<ProductOutput[]> {
    return this.db
      .selectFrom('project_outputs')
      .innerJoin('project_renders', 'project_renders.id', 'project_outputs.render_id')
      .selectAll('project_outputs')
      .select(['project_renders.input_id', 'project_renders.variant'])
      .where('project_outputs.user_id', '=', ownerId)
      .where('project_outputs.project_id', '=', projectId)
      .orderBy('project_outputs.created_at', 'desc')
      .execute();
  }

  async listProjects(ownerId: string, page: ProjectPageRequest): Promise<Page<ProjectRow>> {
    let base = this.db.selectFrom('projects').where('projects.user_id', '=', ownerId);
    if (page.categoryId) base = base.where('projects.category_id', '=', page.categoryId);
    if (page.status) {
      const status = page.status;
      base = base.where((eb) =>
        eb.exists(
          eb
            .selectFrom('project_renders')
            .select(sql.lit(1).as('one'))
            .whereRef('project_renders.project_id', '=', 'projects.id')
            .where('project_renders.status', '=', status),
        ),
      );
    }
    const { total } = await base
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow();
    const rows = await base
      .selectAll('projects')
      .orderBy(`projects.${page.sort}`, page.direction)
      .orderBy('projects.id', page.direction)
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    return { rows, total: Number(total) };
  }

  /**
   * The project, its row locked until the unit of work ends on PostgreSQL (SQLite runs one writer
   * at a time already), so work that reads and then writes on its behalf takes turns.
   */
  async lockProject(ownerId: string, id: string): Promise<ProjectRow | undefined> {
    let query = this.db
      .selectFrom('projects')
      .selectAll()
      .where('user_id', '=', ownerId)
      .where('id', '=', id);
    if (this.database.dialect === 'postgres') query = query.forUpdate();
    return query.executeTakeFirst();
  }

  async updateProject(
    ownerId: string,
    id: string,
    changes: Partial<
      Pick<ProjectRow, 'settings' | 'category_id' | 'folder_id' | 'output_folder_id' | 'cover_item_id'>
    >,
  ): Promise<void> {
    await this.db
      .updateTable('projects')
      .set({ ...changes, updated_at: this.now().toISOString() })
      .where('user_id', '=', ownerId)
      .where('id', '=', id)
      .execute();
  }

  // ---- outputs -----------------------------------------------------------------------------

  insertOutput(row: OutputRow): Promise<OutputRow> {
    return this.db.insertInto('project_outputs').values(row).returningAll().executeTakeFirstOrThrow();
  }

  /** The owner's output made of this file, whichever project it belongs to. */
  findOutput(ownerId: string, itemId: string): Promise<OutputRow | undefined> {
    return this.db
      .selectFrom('project_outputs')
      .selectAll()
      .where('user_id', '=', ownerId)
      .where('item_id', '=', itemId)
      .executeTakeFirst();
  }

  /** The owner's outputs the filter keeps whose file is live, each with its file's `item_sort_name`. */
  private outputs(ownerId: string, filter: OutputFilter) {
    const pattern = filter.search ? likePattern(filter.search) : null;
    const rows = this.db
      .selectFrom('project_outputs')
      .innerJoin('projects', 'projects.id', 'project_outputs.project_id')
      .selectAll('project_outputs')
      .select(
        pattern === null
          ? sql<SqlBool>`false`.as('matched')
          : sql<SqlBool>`projects.sort_name like ${pattern} escape '\\'`.as('matched'),
      )
      .where('project_outputs.user_id', '=', ownerId)
      .$if(filter.projectId !== null, (qb) => qb.where('project_outputs.project_id', '=', filter.projectId!))
      .where('project_outputs.kind', 'in', filter.kind !== undefined ? [filter.kind] : LISTED_OUTPUTS)
      .$if(filter.day !== undefined, (qb) => qb.where('project_outputs.day', '=', filter.day!));
    return this.db.selectFrom(this.items.rowsWithLiveItem(ownerId, rows, pattern).as('output'));
  }

  async listOutputs(
    ownerId: string,
    filter: OutputFilter,
    page?: { limit: number; offset: number },
  ): Promise<
    Page<
      ItemRow & {
        output_kind: OutputKind;
        output_project_id: string;
        output_render_id: string | null;
        output_model_content_id: string | null;
      }
    >
  > {
    const base = this.outputs(ownerId, filter);
    const { total } = await base
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow();
    const outputs = await base
      .selectAll()
      .orderBy('output.created_at', 'desc')
      .orderBy('output.item_sort_name', 'asc')
      .orderBy('output.item_id', 'asc')
      .$if(page !== undefined, (qb) => qb.limit(page!.limit).offset(page!.offset))
      .execute();
    const files = new Map(
      (
        await this.items.findMany(
          ownerId,
          outputs.map((output) => output.item_id),
        )
      ).map((file) => [file.id, file]),
    );
    const rows = outputs.flatMap((output) => {
      const file = files.get(output.item_id);
      if (!file) return [];
      return [
        {
          ...file,
          output_kind: output.kind,
          output_project_id: output.project_id,
          output_render_id: output.render_id,
          output_model_content_id: output.model_content_id,
        },
      ];
    });
    return { rows, total: Number(total) };
  }

  /**
   * For each input of these projects that has outputs: the model content its newest outputs were
   * rendered from (null: not known), the category of the render that made them, and whether a render
   * of it is still queued or rendering.
   */
  async newestOutputsOf(ownerId: string, projectIds: readonly string[]): Promise<NewestOutputs[]> {
    if (projectIds.length === 0) return [];
    // The newest time of each input's outputs, grouped once, then the outputs of that time.
    const newestTimes = this.db
      .selectFrom('project_outputs as o2')
      .innerJoin('project_renders as r2', 'r2.id', 'o2.render_id')
      .select(['o2.project_id as project_id', 'r2.input_id as input_id'])
      .select((eb) => eb.fn.max('o2.created_at').as('newest'))
      .where('o2.user_id', '=', ownerId)
      .where('o2.project_id', 'in', projectIds)
      .where('r2.input_id', 'is not', null)
      .groupBy(['o2.project_id', 'r2.input_id'])
      .as('m');
    const newest = await this.db
      .selectFrom('project_outputs as o')
      .innerJoin('project_renders as r', 'r.id', 'o.render_id')
      .innerJoin(newestTimes, (join) =>
        join
          .onRef('m.project_id', '=', 'o.project_id')
          .onRef('m.input_id', '=', 'r.input_id')
          .onRef('m.newest', '=', 'o.created_at'),
      )
      .select(['o.project_id', 'r.input_id', 'o.model_content_id', 'r.category_id'])
      .where('o.user_id', '=', ownerId)
      .where('o.project_id', 'in', projectIds)
      .execute();
    const pending = await this.db
      .selectFrom('project_renders')
      .select(['project_id', 'input_id', 'status'])
      .distinct()
      .where('user_id', '=', ownerId)
      .where('project_id', 'in', projectIds)
      .where('status', 'in', ['queued', 'rendering'])
      .execute();
    const inState = (status: RenderRow['status']) =>
      new Set(
        pending.filter((row) => row.status === status).map((row) => `${row.project_id}:${row.input_id}`),
      );
    const [queued, running] = [inState('queued'), inState('rendering')];
    const byInput = new Map<string, NewestOutputs>();
    for (const row of newest)
      byInput.set(`${row.project_id}:${row.input_id}`, {
        project_id: row.project_id,
        input_id: row.input_id!,
        model_content_id: row.model_content_id,
        category_id: row.category_id,
        queued: queued.has(`${row.project_id}:${row.input_id}`),
        running: running.has(`${row.project_id}:${row.input_id}`),
      });
    return [...byInput.values()];
  }

  /** The days that have outputs, newest first, with how many images and videos each holds. */
  async outputDays(
    ownerId: string,
    filter: OutputFilter,
    page: { limit: number; offset: number },
  ): Promise<Page<{ day: string; images: number; videos: number }>> {
    const base = this.outputs(ownerId, filter);
    const { total } = await base
      .select(sql<number>`count(distinct output.day)`.as('total'))
      .executeTakeFirstOrThrow();
    const rows = await base
      .select([
        'output.day as day',
        sql<number>`sum(case when output.kind = 'image' then 1 else 0 end)`.as('images'),
        sql<number>`sum(case when output.kind = 'video' then 1 else 0 end)`.as('videos'),
      ])
      .groupBy('output.day')
      .orderBy('output.day', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    return {
      rows: rows.map((r) => ({ day: r.day, images: Number(r.images), videos: Number(r.videos) })),
      total: Number(total),
    };
  }

  async countOutputs(ownerId: string, projectIds: readonly string[]): Promise<Map<string, number>> {
    if (projectIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom(
        this.items
          .rowsWithLiveItem(
            ownerId,
            this.db
              .selectFrom('project_outputs')
              .select(['project_id', 'item_id', sql<SqlBool>`false`.as('matched')])
              .where('user_id', '=', ownerId)
              .where('project_id', 'in', projectIds)
              .where('kind', 'in', LISTED_OUTPUTS),
            null,
          )
          .as('output'),
      )
      .select(['output.project_id', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('output.project_id')
      .execute();
    return new Map(rows.map((r) => [r.project_id, Number(r.n)]));
  }

  // ---- renders -----------------------------------------------------------------------------

  insertRenders(rows: RenderRow[]): Promise<RenderRow[]> {
    if (rows.length === 0) return Promise.resolve([]);
    return this.db.insertInto('project_renders').values(rows).returningAll().execute();
  }

  /** A render by id alone: the worker acts for its owner, whose id the row carries. */
  findRender(id: string): Promise<RenderRow | undefined> {
    return this.db.selectFrom('project_renders').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findRenders(ownerId: string, ids: readonly string[]): Promise<RenderRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('project_renders')
      .selectAll()
      .where('user_id', '=', ownerId)
      .where('id', 'in', ids)
      .execute();
  }

  async updateRender(
    id: string,
    changes: Partial<Pick<RenderRow, 'status' | 'progress' | 'error' | 'attempts' | 'started_at'>>,
  ): Promise<void> {
    await this.db
      .updateTable('project_renders')
      .set({ ...changes, updated_at: this.now().toISOString() })
      .where('id', '=', id)
      .execute();
  }

  /**
   * As `updateRender`, for a render not filed yet: answers false, changing nothing, once a run filed
   * its outputs (this one, or another run of its job), so no later step of any run undoes `done`.
   */
  async updateRenderUnlessDone(
    id: string,
    changes: Partial<Pick<RenderRow, 'status' | 'progress' | 'error' | 'attempts' | 'started_at'>>,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('project_renders')
      .set({ ...changes, updated_at: this.now().toISOString() })
      .where('id', '=', id)
      .where('status', '!=', 'done')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Names the job that runs the render, so the stuck-render sweep can ask the queue about it. */
  async setRenderJob(id: string, jobId: string): Promise<void> {
    await this.db.updateTable('project_renders').set({ job_id: jobId }).where('id', '=', id).execute();
  }

  /** Renders queued or rendering that nothing has moved since `before`, oldest first. */
  unfinishedRendersIdleSince(before: string, limit: number): Promise<RenderRow[]> {
    return this.db
      .selectFrom('project_renders')
      .selectAll()
      .where('status', 'in', ['queued', 'rendering'])
      .where('updated_at', '<', before)
      .orderBy('updated_at')
      .limit(limit)
      .execute();
  }

  /**
   * Changes a render only as it was read (same status, untouched since): a runner that took it up
   * meanwhile wins. True when it changed.
   */
  async updateRenderAsRead(
    seen: RenderRow,
    changes: Partial<Pick<RenderRow, 'status' | 'error' | 'job_id'>>,
    at: string,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('project_renders')
      .set({ ...changes, updated_at: at })
      .where('id', '=', seen.id)
      .where('status', '=', seen.status)
      .where('updated_at', '=', seen.updated_at)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async listRenders(
    ownerId: string,
    projectId: string,
    page: { limit: number; offset: number; categoryId?: string; status?: ProjectAssetStatus },
  ): Promise<Page<RenderRow>> {
    let base = this.db
      .selectFrom('project_renders')
      .where('user_id', '=', ownerId)
      .where('project_id', '=', projectId);
    if (page.categoryId) base = base.where('category_id', '=', page.categoryId);
    if (page.status) base = base.where('status', '=', page.status);
    const { total } = await base
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow();
    const rows = await base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    return { rows, total: Number(total) };
  }

  /** The newest render of each input file. */
  async latestRendersOf(ownerId: string, inputIds: readonly string[]): Promise<Map<string, RenderRow>> {
    if (inputIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('project_renders')
      .selectAll()
      .where('user_id', '=', ownerId)
      .where('input_id', 'in', inputIds)
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .execute();
    return new Map(rows.map((r) => [r.input_id!, r]));
  }

  /** Every render queued or rendering on the instance, in the order the queue takes them. */
  unfinishedRenders(): Promise<
    Array<
      Pick<
        RenderRow,
        'id' | 'user_id' | 'project_id' | 'category_id' | 'status' | 'started_at' | 'created_at'
      >
    >
  > {
    return this.db
      .selectFrom('project_renders')
      .select(['id', 'user_id', 'project_id', 'category_id', 'status', 'started_at', 'created_at'])
      .where('status', 'in', ['queued', 'rendering'])
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  /** The owner's renders in these projects made at or after `since`: their batches. */
  rendersMadeSince(
    ownerId: string,
    projectIds: readonly string[],
    since: string,
  ): Promise<Array<Pick<RenderRow, 'project_id' | 'status' | 'created_at'>>> {
    return this.db
      .selectFrom('project_renders')
      .select(['project_id', 'status', 'created_at'])
      .where('user_id', '=', ownerId)
      .where('project_id', 'in', projectIds)
      .where('created_at', '>=', since)
      .execute();
  }

  /** The newest renders of the instance that finished, with when they started and ended. */
  latestFinishedRenders(
    limit: number,
  ): Promise<Array<Pick<RenderRow, 'category_id' | 'started_at' | 'updated_at'>>> {
    return this.db
      .selectFrom('project_renders')
      .select(['category_id', 'started_at', 'updated_at'])
      .where('status', '=', 'done')
      .where('started_at', 'is not', null)
      .orderBy('updated_at', 'desc')
      .limit(limit)
      .execute();
  }

  async projectNames(ownerId: string, ids: readonly string[]): Promise<Map<string, string>> {
    const rows = await this.db
      .selectFrom('projects')
      .select(['id', 'name'])
      .where('user_id', '=', ownerId)
      .where('id', 'in', ids)
      .execute();
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  /** How many of the project's renders are still queued or rendering, and how many ended done since `since`. */
  async rendersSettledSince(projectId: string, since: string): Promise<{ unfinished: number; done: number }> {
    const rows = await this.db
      .selectFrom('project_renders')
      .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
      .where('project_id', '=', projectId)
      .where((eb) =>
        eb.or([
          eb('status', 'in', ['queued', 'rendering']),
          eb.and([eb('status', '=', 'done'), eb('updated_at', '>=', since)]),
        ]),
      )
      .groupBy('status')
      .execute();
    const count = (status: ProjectAssetStatus) => Number(rows.find((r) => r.status === status)?.n ?? 0);
    return { unfinished: count('queued') + count('rendering'), done: count('done') };
  }

  async renderCounts(
    ownerId: string,
    projectIds: readonly string[],
  ): Promise<Map<string, Record<ProjectAssetStatus, number>>> {
    const counts = new Map<string, Record<ProjectAssetStatus, number>>();
    if (projectIds.length === 0) return counts;
    const rows = await this.db
      .selectFrom('project_renders')
      .select(['project_id', 'status', (eb) => eb.fn.countAll<number>().as('n')])
      .where('user_id', '=', ownerId)
      .where('project_id', 'in', projectIds)
      .groupBy(['project_id', 'status'])
      .execute();
    for (const row of rows) {
      const entry = counts.get(row.project_id) ?? { queued: 0, rendering: 0, done: 0, failed: 0 };
      entry[row.status] = Number(row.n);
      counts.set(row.project_id, entry);
    }
    return counts;
  }

  // ---- studio defaults ---------------------------------------------------------------------

  async studioDefaults(userId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('studio_defaults')
      .select('settings')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.settings;
  }

  /** The Output folders of the owner's projects. */
  async outputFolderIds(ownerId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('projects')
      .select('output_folder_id')
      .where('user_id', '=', ownerId)
      .where('output_folder_id', 'is not', null)
      .execute();
    return rows.map((row) => row.output_folder_id!);
  }

  /**
   * `studioDefaults`, the row held (PostgreSQL) until the caller's unit of work ends; made empty first
   * when there is none, so that two first changes take turns too.
   */
  async lockStudioDefaults(userId: string): Promise<string | undefined> {
    if (this.database.dialect !== 'postgres') return this.studioDefaults(userId);
    await this.db
      .insertInto('studio_defaults')
      .values({ user_id: userId, settings: '{}', updated_at: this.now().toISOString() })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
    const row = await this.db
      .selectFrom('studio_defaults')
      .select('settings')
      .where('user_id', '=', userId)
      .forUpdate()
      .executeTakeFirst();
    return row?.settings;
  }

  async saveStudioDefaults(userId: string, settings: string): Promise<void> {
    const updated_at = this.now().toISOString();
    await this.db
      .insertInto('studio_defaults')
      .values({ user_id: userId, settings, updated_at })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ settings, updated_at }))
      .execute();
  }
}
