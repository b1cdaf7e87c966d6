import { adminJobDefinitions } from '../modules/admin/admin.module';
import { authJobDefinitions } from '../modules/auth/auth.jobs';
import { billingJobDefinitions } from '../modules/billing/billing.module';
import { filesJobDefinitions } from '../modules/files/files.module';
import { projectsJobDefinitions } from '../modules/projects/projects.module';
import { sharingJobDefinitions } from '../modules/sharing/sharing.module';
import { teamsJobDefinitions } from '../modules/teams/teams.module';
import { uploadRequestJobDefinitions } from '../modules/upload-requests/upload-requests.module';
import type { AppDeps } from '../services';
import type { AnyJobDefinition } from './job-definition';

/**
 * Every kind of background job the app runs; a worker process consumes exactly these. A module adds
 * its definitions here; handlers receive the app's services (each declares the part it needs).
 */
export const jobDefinitions: ReadonlyArray<AnyJobDefinition<AppDeps>> = [
  ...filesJobDefinitions,
  ...projectsJobDefinitions,
  ...sharingJobDefinitions,
  ...uploadRequestJobDefinitions,
  ...teamsJobDefinitions,
  ...adminJobDefinitions,
  ...authJobDefinitions,
  ...billingJobDefinitions,
];
