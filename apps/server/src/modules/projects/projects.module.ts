import type { Logger } from 'pino';
import type { JobQueue } from '../../jobs/job-queue';
import type { Broadcaster } from '../../realtime/realtime.server';
import type { Database } from '../../db/database';
import type { StorageProvider } from '../../storage/storage-provider';
import type { ContentReader } from '../files/block-store';
import type { DownloadService } from '../files/download.service';
import type { ActorResolver } from '../files/files.access';
import type { ItemReader } from '../files/files.ports';
import type { I18nService } from '../i18n/i18n.service';
import type { NotificationsService } from '../notifications/notifications.service';
import type { AccountLimits, FilesService } from '../files/files.service';
import type { UploadService } from '../files/upload.service';
import type { ThumbnailService } from '../files/thumbnail.service';
import type { UsersService } from '../users/users.service';
import { ModelImports } from './model-imports';
import { modelPreviewJob } from './model-preview.job';
import { ModelPreviewService } from './model-preview.service';
import { ProductPages } from './product-page.service';
import { ProjectsRepository } from './projects.repository';
import { ProjectsService } from './projects.service';
import { RenderCatalogue } from './render-catalogue';
import { RenderQueueReader } from './render-queue';
import { RenderSweep } from './render-sweep';
import { ShopPackRepository } from './shop-pack.repository';
import { ShopPackService } from './shop-pack.service';
import { renderJob } from './render.job';
import { RenderRunner } from './render.runner';

export interface ProjectsModuleDeps {
  database: Database;
  items: ItemReader;
  files: FilesService;
  uploads: UploadService;
  downloads: DownloadService;
  storage: StorageProvider;
  /** Files' bytes, whatever their layout (the files module's block store). */
  contents: ContentReader;
  limits: AccountLimits;
  thumbnails: ThumbnailService;
  users: UsersService;
  actors: ActorResolver;
  jobs: JobQueue;
  realtime: Broadcaster;
  notifications: NotificationsService;
  i18n: I18nService;
  logger: Logger;
  now: () => Date;
}

/** The studio's services, wired once; services.ts spreads them into the app's dependencies. */
export function createProjectsServices(deps: ProjectsModuleDeps) {
  const repository = new ProjectsRepository(deps.database, deps.now, deps.items);
  const catalogue = new RenderCatalogue();
  // One per process: the viewer, previews and renders take their turns from the same bound.
  const modelImports = new ModelImports({ contents: deps.contents, catalogue });
  const projects = new ProjectsService({
    ...deps,
    units: deps.database,
    projects: repository,
    catalogue,
    imports: modelImports,
  });
  const projectRenders = new RenderRunner({
    ...deps,
    units: deps.database,
    projects: repository,
    catalogue,
    imports: modelImports,
  });
  const modelPreviews = new ModelPreviewService({ ...deps, catalogue, imports: modelImports });
  const renderSweep = new RenderSweep({
    projects: repository,
    jobs: deps.jobs,
    projectRenders,
    units: deps.database,
  });
  const renderQueue = new RenderQueueReader({ projects: repository, now: deps.now });
  const productPages = new ProductPages({ projects: repository, items: deps.items });
  const shopPacks = new ShopPackService({
    ...deps,
    projects: repository,
    studio: projects,
    packs: new ShopPackRepository(deps.database),
  });
  return {
    projects,
    projectRenders,
    modelPreviews,
    modelImports,
    renderSweep,
    renderQueue,
    shopPacks,
    productPages,
  };
}

/** The background jobs of the studio, for the worker's list. */
export const projectsJobDefinitions = [renderJob, modelPreviewJob];
