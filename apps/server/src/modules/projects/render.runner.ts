import type { Logger } from 'pino';
import type { ProjectAssetStatus } from '@atelier/contracts';
import type { Model, Scene } from '@atelier/render';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PermanentJobError } from '../../jobs/job-definition';
import type { UnitOfWork } from '../../db/database';
import type { Broadcaster } from '../../realtime/realtime.server';
import type { StorageProvider } from '../../storage/storage-provider';
import { ownerActor } from '../files/files.access';
import { presentItem } from '../files/files.presenter';
import type { ItemReader } from '../files/files.ports';
import type { FilesService } from '../files/files.service';
import type { ItemRow } from '../files/files.tables';
import type { QuotaReservation, UploadService } from '../files/upload.service';
import type { I18nService } from '../i18n/i18n.service';
import type { NotificationsService } from '../notifications/notifications.service';
import type { ModelImports } from './model-imports';
import { storedVariant } from './projects.presenter';
import type { ProjectsRepository } from './projects.repository';
import { OUTPUT_FOLDER_NAME, parseSettings } from './projects.service';
import type { OutputKind, ProjectRow, RenderRow } from './projects.tables';
import type { RenderCatalogue } from './render-catalogue';

export interface RenderRunnerDeps {
  projects: ProjectsRepository;
  items: ItemReader;
  files: FilesService;
  uploads: UploadService;
  storage: StorageProvider;
  units: UnitOfWork;
  /** The app's clock: a render's files are stamped with it. */
  now: () => Date;
  realtime: Broadcaster;
  catalogue: RenderCatalogue;
  imports: ModelImports;
  notifications: Pick<NotificationsService, 'notify'>;
  i18n: Pick<I18nService, 'translate'>;
  logger: Pick<Logger, 'warn'>;
}

export interface RunContext {
  /** Starts of the render's job, this one included: the render's attempts the studio shows. */
  attempt: number;
  /** Runs of it that failed before this one; runs lost with their worker are not. */
  failures: number;
  signal: AbortSignal;
  /** Attempts after a failed one; after the last, a failure is reported as final. */
  retries: number;
}

/** Longest side of a turntable video; stills keep the scene's full resolution. */
const VIDEO_MAX_SIDE = 1080;
/** Progress is written and pushed at most this often while frames pile up. */
const PROGRESS_INTERVAL_MS = 300;

/** Render errors the input file causes (its format, content or size), as opposed to faults of the server. */
const INPUT_FAULTS = new Set([
  'unsupported_format',
  'corrupt_file',
  'too_large',
  'too_many_triangles',
  'empty_model',
  'timeout',
  'invalid_scene',
]);

/** A failure the input or the account causes; retrying cannot help. */
class FinalRenderFailure extends Error {}

/**
 * Runs one render: reads the input from storage, imports it, renders stills and the turntable with
 * the scene of its category and settings, stores every output as a file of the project's output
 * folder (counted in the owner's storage, reserved like uploads) and reports each step as a
 * project.asset event. Safe to repeat: a render already finished is left alone.
 */
export class RenderRunner {
  constructor(private readonly deps: RenderRunnerDeps) {}

  async run(renderId: string, context: RunContext): Promise<void> {
    const render = await this.deps.projects.findRender(renderId);
    if (!render || render.status === 'done' || render.status === 'failed') return;
    const project = await this.deps.projects.findProject(render.user_id, render.project_id);
    if (!project) return;
    const engineModule = await this.deps.catalogue.load();
    const progress = new ProgressReporter(this, render);
    const workDir = await mkdtemp(join(tmpdir(), 'atelier-render-'));
    let engine: Awaited<ReturnType<typeof engineModule.createEngine>> | null = null;
    let reservation: QuotaReservation | null = null;
    let filed: ItemRow[] | null = null;
    try {
      const started = await this.deps.projects.updateRenderUnlessDone(render.id, {
        status: 'rendering',
        progress: 0,
        error: null,
        attempts: context.attempt,
        started_at: this.deps.now().toISOString(),
      });
      // Filed meanwhile by another run of its job.
      if (!started) return;
      await this.emit(render, 'rendering', 0);
      const input = render.input_id
        ? await this.deps.items.findOne(render.user_id, render.input_id)
        : undefined;
      if (!input?.storage_key || input.deleted_at !== null)
        throw new FinalRenderFailure('projects.render_error.input_gone');

      const variant = storedVariant(render);
      const plan = await this.deps.catalogue.runPlan(
        render.category_id,
        parseSettings(await this.deps.projects.studioDefaults(render.user_id)),
        await this.deps.catalogue.withVariant(parseSettings(project.settings), variant),
      );
      const model = await this.deps.imports.import(
        { name: input.name, size: input.size, storage_key: input.storage_key },
        { signal: context.signal },
      );
      await progress.set(10);
      engine = await engineModule.createEngine(render.engine);
      const { width, height } = plan.scene.resolution;
      const scale = Math.min(1, VIDEO_MAX_SIDE / Math.max(width, height));
      const even = (n: number) => Math.max(16, 2 * Math.round((n * scale) / 2));
      const result = await engine.render({
        model,
        scene: plan.scene,
        stills: plan.stills,
        video: plan.video
          ? {
              seconds: plan.scene.turntable.seconds,
              fps: plan.scene.turntable.fps,
              width: even(width),
              height: even(height),
            }
          : undefined,
        outDir: workDir,
        signal: context.signal,
        onProgress: (p) => void progress.fromEngine(p, plan.stills, plan.video).catch(() => undefined),
      });
      await progress.flush();

      // Outputs are named by the model and what each shows, in readable English: ring-three-quarter-back.png
      // (a re-render's, beside them, ring-three-quarter-back (1).png), then the colourway: ring-front-rose-gold.png.
      const stem = input.name.replace(/\.[^.]+$/, '');
      const colourway = variant ? `-${variant.id}` : '';
      const cameras = engineModule.stillCameras(plan.scene, result.stills.length);
      const outputs: Output[] = [
        ...result.stills.map((path, index) => ({
          path,
          kind: 'image' as const,
          name: `${stem}-${engineModule.fileSafe(cameras[index]!.name)}${colourway}.png`,
        })),
        ...(result.video
          ? [
              { path: result.video, kind: 'video' as const, name: `${stem}-turntable${colourway}.mp4` },
              ...(await this.productFiles(render, project, plan.scene, model, result.video, workDir, {
                stem,
                colourway,
                signal: context.signal,
              })),
            ]
          : []),
      ];
      // All or nothing: the whole set is reserved in the owner's storage, beside what uploads under
      // way hold, before any of it is stored.
      const bytes = (await Promise.all(outputs.map((output) => stat(output.path)))).reduce(
        (sum, info) => sum + info.size,
        0,
      );
      reservation = await this.deps.uploads.reserve(render.user_id, bytes);
      if (!reservation) throw new FinalRenderFailure('errors.storage_limit_exceeded');
      // One time for the whole set, so a render's files list together, stills in camera order.
      const madeAt = this.deps.now().toISOString();
      // The outputs say which version of the model they show: the bytes read above, whatever the file holds now.
      filed = await this.fileOutputs(project, render, reservation, outputs, madeAt, input.content_id);
    } catch (error) {
      await progress.flush().catch(() => undefined);
      const final =
        error instanceof FinalRenderFailure ||
        error instanceof engineModule.RenderError ||
        context.failures >= context.retries;
      if (!final || (context.signal.aborted && !(error instanceof FinalRenderFailure))) {
        // Another attempt follows (a retry, or another worker after a shutdown): the render waits
        // again, unless another run of its job filed it meanwhile, which this one leaves done.
        if (!(await this.deps.projects.updateRenderUnlessDone(render.id, { status: 'queued', progress: 0 })))
          return;
        await this.emit(render, 'queued', 0);
        throw error;
      }
      // The owner sees why the input failed; a fault of the server is told as such, its details go to the log.
      const ownFault =
        error instanceof FinalRenderFailure ||
        (error instanceof engineModule.RenderError && INPUT_FAULTS.has(error.code));
      const reason = ownFault ? (error as Error).message : 'projects.render_error.internal';
      const failed = await this.deps.units.transaction(async () => {
        if (
          !(await this.deps.projects.updateRenderUnlessDone(render.id, { status: 'failed', error: reason }))
        )
          return false;
        await this.tellOwner(render, reason);
        return true;
      });
      if (!failed) return;
      await this.emit(render, 'failed', progress.current, { error: reason });
      throw new PermanentJobError(error instanceof Error ? error.message : String(error), { cause: error });
    } finally {
      // What was not filed (a failure half-way) is let go; each step whatever the one before did,
      // so a failed release never leaves the browser running or the render's files on disk.
      await Promise.allSettled([
        reservation?.release(),
        engine?.close(),
        rm(workDir, { recursive: true, force: true }),
      ]);
    }
    // Another run of this render (a job claimed again while this one still ran) filed its set first.
    if (filed) await this.announceDone(render, filed);
  }

  /**
   * Tells the page the set is filed, with its first file. The set is committed whatever happens here:
   * a failure is logged, and never turns into a retry that would render and file the set again.
   */
  private async announceDone(render: RenderRow, filed: readonly ItemRow[]): Promise<void> {
    try {
      const first = filed[0]
        ? await this.deps.files.view(ownerActor(render.user_id), filed[0].id)
        : undefined;
      await this.emit(render, 'done', 100, first ? { file: presentItem(first) } : {});
    } catch (error) {
      this.deps.logger.warn({ err: error, render: render.id }, 'a filed render could not be announced');
    }
  }

  async emit(
    render: RenderRow,
    status: ProjectAssetStatus,
    percent: number,
    extra: { file?: ReturnType<typeof presentItem>; error?: string } = {},
  ): Promise<void> {
    await this.deps.realtime.emitToUser(render.user_id, 'project.asset', {
      job_id: render.id,
      project_id: render.project_id,
      status,
      progress: percent,
      ...extra,
    });
  }

  /**
   * Tells the owner how a render ended, inside the unit of work that records its end: a final
   * failure with its reason, and, once the project has nothing left queued or rendering, that its
   * renders are done (once for the whole batch, when any of them made outputs).
   */
  async tellOwner(render: RenderRow, failure: string | null): Promise<void> {
    // Ends of one project's renders take turns, so exactly one of them finds the project idle.
    const project = await this.deps.projects.lockProject(render.user_id, render.project_id);
    if (!project) return;
    const { i18n, notifications } = this.deps;
    if (failure !== null) {
      const reason = await i18n.translate(failure);
      // The engine's own messages start in lower case; here the reason is a sentence of its own.
      const sentence = reason.charAt(0).toLocaleUpperCase() + reason.slice(1);
      const vars = { project: project.name, file: render.input_name, reason: sentence };
      await notifications.notify(render.user_id, {
        category: 'render-failed',
        title: await i18n.translate('notifications.render_failed.title', vars),
        description: await i18n.translate('notifications.render_failed.description', vars),
        action: {
          type: 'route',
          params: {
            route: 'ProjectDetails',
            id: project.id,
            button: await i18n.translate('notifications.render_failed.button'),
          },
        },
      });
    }
    // Done since this render was queued: it, or others of its batch that ended while it waited.
    const ends = await this.deps.projects.rendersSettledSince(project.id, render.created_at);
    if (ends.unfinished > 0 || ends.done === 0) return;
    const vars = { project: project.name };
    await notifications.notify(render.user_id, {
      category: 'render-done',
      title: await i18n.translate('notifications.render_done.title', vars),
      description: await i18n.translate('notifications.render_done.description', vars),
      action: {
        type: 'route',
        params: {
          route: 'ProjectDetailsOutput',
          id: project.id,
          button: await i18n.translate('notifications.render_done.button'),
        },
      },
    });
  }

  async saveProgress(render: RenderRow, percent: number): Promise<void> {
    await this.deps.projects.updateRender(render.id, { progress: percent });
    await this.emit(render, 'rendering', percent);
  }

  /**
   * Files the rendered set in the output folder (made again if the owner removed it), out of the
   * bytes reserved: the bytes go to storage first, then the files, their output records, their
   * thumbnail jobs and the render's end commit as one unit. The gallery lists every rendered file,
   * no file is left that only the output folder shows, and a render is done exactly when its set is
   * filed; bytes of a set that was not filed are removed. Null when another run of the render filed
   * its set first (the queue runs a job at least once): one set, one notice, one charge to the quota.
   */
  private async fileOutputs(
    project: ProjectRow,
    render: RenderRow,
    reservation: QuotaReservation,
    outputs: Output[],
    now: string,
    modelContentId: string | null,
  ): Promise<ItemRow[] | null> {
    const ownerId = render.user_id;
    const storage = await this.deps.storage.current();
    const objects: Array<{ key: string; size: number }> = [];
    try {
      for (const output of outputs)
        objects.push(
          // Recorded with the reservation first: bytes of a process killed before the filing are swept.
          await reservation.put(await readFile(output.path), { contentType: mimetypeOf(output) }),
        );
      const filed = await reservation.filing(async () => {
        // Sets of one project are filed in turn, so a re-render's outputs see the earlier ones and
        // are kept beside them as `name (1).png`, never under the same name; and each files into
        // the output folder the project names now (an earlier set may have made it again).
        const current = await this.deps.projects.lockProject(ownerId, project.id);
        if (!current) throw new FinalRenderFailure('projects.render_error.folder_gone');
        const latest = await this.deps.projects.findRender(render.id);
        if (!latest || latest.status === 'done') return null;
        const folderId = await this.outputFolder(current);
        // A spin's frames are many: they keep to a folder of their own inside the output folder.
        const subfolders = new Map<string, string>();
        for (const name of new Set(outputs.flatMap((output) => (output.folder ? [output.folder] : []))))
          subfolders.set(
            name,
            (
              await this.deps.files.insertFolder(
                ownerActor(ownerId),
                folderId,
                await this.freeName(ownerId, folderId, name),
              )
            ).id,
          );
        const items: ItemRow[] = [];
        for (const [index, output] of outputs.entries()) {
          const { kind, name } = output;
          const object = objects[index]!;
          const item = await reservation.file({
            parentId: output.folder ? subfolders.get(output.folder)! : folderId,
            name,
            mimetype: mimetypeOf(output),
            size: object.size,
            storageKey: object.key,
            now,
          });
          await this.deps.projects.insertOutput({
            item_id: item.id,
            project_id: project.id,
            user_id: ownerId,
            render_id: render.id,
            kind,
            model_content_id: modelContentId,
            day: now.slice(0, 10),
            created_at: now,
          });
          items.push(item);
        }
        await this.deps.projects.updateRender(render.id, { status: 'done', progress: 100 });
        await this.tellOwner(render, null);
        return items;
      });
      if (!filed) await storage.deleteMany(objects.map((o) => o.key));
      return filed;
    } catch (error) {
      // Bytes no item points at would count against no one and stay forever.
      await storage.deleteMany(objects.map((o) => o.key)).catch(() => {});
      throw error;
    }
  }

  /**
   * What a product page shows beside the stills and the turntable: the turntable's frames as a spin
   * (WebP, in a folder of their own), the model as a GLB with every colourway of the project (this
   * render's worn by default) and as a USDZ in this render's colourway, for AR at real size.
   */
  private async productFiles(
    render: RenderRow,
    project: ProjectRow,
    scene: Scene,
    model: Model,
    video: string,
    workDir: string,
    { stem, colourway, signal }: { stem: string; colourway: string; signal: AbortSignal },
  ): Promise<Output[]> {
    const engine = await this.deps.catalogue.load();
    const spinDir = join(workDir, 'spin');
    await mkdir(spinDir);
    const frames = await engine.extractSpinFrames(video, spinDir, { signal });
    const defaults = parseSettings(await this.deps.projects.studioDefaults(render.user_id));
    const settings = parseSettings(project.settings);
    const variants = await Promise.all(
      (settings.variants ?? []).map(async (variant) => ({
        id: variant.id,
        name: variant.name,
        scene: (
          await this.deps.catalogue.runPlan(
            render.category_id,
            defaults,
            await this.deps.catalogue.withVariant(settings, variant),
          )
        ).scene,
      })),
    );
    const glb = join(workDir, 'model.glb');
    const usdz = join(workDir, 'model.usdz');
    await writeFile(
      glb,
      await engine.exportModel(model, { format: 'glb', scene, variants, name: project.name }),
    );
    await writeFile(usdz, await engine.exportModel(model, { format: 'usdz', scene }));
    const spinFolder = `${stem}-spin${colourway}`;
    return [
      { path: glb, kind: 'model', name: `${stem}${colourway}.glb`, mimetype: GLB_MIMETYPE },
      { path: usdz, kind: 'model', name: `${stem}${colourway}.usdz`, mimetype: USDZ_MIMETYPE },
      ...frames.map((path, index) => ({
        path,
        kind: 'spin' as const,
        name: `${spinFolder}-${String(index).padStart(2, '0')}.webp`,
        mimetype: 'image/webp',
        folder: spinFolder,
      })),
    ];
  }

  /** A re-render's folder is kept beside the first's as `name (1)`, as its files are. */
  private async freeName(ownerId: string, parentId: string, name: string): Promise<string> {
    let candidate = name;
    for (let n = 1; await this.deps.items.findLiveChild(ownerId, parentId, candidate); n++)
      candidate = `${name} (${n})`;
    return candidate;
  }

  private async outputFolder(project: ProjectRow): Promise<string> {
    const existing = project.output_folder_id
      ? await this.deps.items.findOne(project.user_id, project.output_folder_id)
      : undefined;
    if (existing && existing.deleted_at === null) return existing.id;
    const parent = project.folder_id
      ? await this.deps.items.findOne(project.user_id, project.folder_id)
      : undefined;
    if (!parent || parent.deleted_at !== null)
      throw new FinalRenderFailure('projects.render_error.folder_gone');
    const folder = await this.deps.files.insertFolder(
      ownerActor(project.user_id),
      parent.id,
      OUTPUT_FOLDER_NAME,
    );
    await this.deps.projects.updateProject(project.user_id, project.id, { output_folder_id: folder.id });
    project.output_folder_id = folder.id;
    return folder.id;
  }
}

/**
 * Turns the engine's stage and frame reports into one whole percent: import up to 10, stills up to
 * 50 (or 98 without a video), the turntable up to 98; the last points are for storing the files.
 */
class ProgressReporter {
  current = 0;
  /** When progress was last written, in process time: a write throttle, not a rule of the app's clock. */
  private lastWrite = 0;
  private pending: Promise<void> = Promise.resolve();

  constructor(
    private readonly runner: RenderRunner,
    private readonly render: RenderRow,
  ) {}

  fromEngine(
    p: { stage: string; frame?: number; frames?: number },
    stills: number,
    video: boolean,
  ): Promise<void> {
    const stillsEnd = video && stills > 0 ? 50 : 98;
    const fraction = p.frame && p.frames ? p.frame / p.frames : 0;
    if (p.stage === 'stills') return this.set(10 + Math.floor((stillsEnd - 10) * fraction));
    if (p.stage === 'video')
      return this.set(
        (stills > 0 ? stillsEnd : 10) + Math.floor((98 - (stills > 0 ? stillsEnd : 10)) * fraction),
      );
    return Promise.resolve();
  }

  /** Records the percent; writes and pushes it when the last write is old enough, in order. */
  set(percent: number): Promise<void> {
    if (percent <= this.current) return this.pending;
    this.current = percent;
    const now = Date.now();
    if (now - this.lastWrite < PROGRESS_INTERVAL_MS) return this.pending;
    this.lastWrite = now;
    // Progress is told on a best effort: a write that fails (a busy database) is dropped, and the
    // chain goes on, rather than failing the finished render when it is flushed.
    this.pending = this.pending
      .then(() => this.runner.saveProgress(this.render, percent))
      .catch(() => undefined);
    return this.pending;
  }

  /** Waits for the writes under way, so no progress lands after the final status. */
  flush(): Promise<void> {
    return this.pending;
  }
}

/** One file a render makes; a type of its own where its kind does not tell it. */
interface Output {
  path: string;
  kind: OutputKind;
  name: string;
  mimetype?: string;
  /** A folder of the output folder it goes into, by name. */
  folder?: string;
}

const GLB_MIMETYPE = 'model/gltf-binary';
const USDZ_MIMETYPE = 'model/vnd.usdz+zip';

function mimetypeOf(output: Pick<Output, 'kind' | 'mimetype'>): string {
  return output.mimetype ?? (output.kind === 'image' ? 'image/png' : 'video/mp4');
}
