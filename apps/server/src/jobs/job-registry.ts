import { authJobDefinitions } from '../modules/auth/auth.jobs';
import { billingJobDefinitions } from '../modules/billing/billing.module';
import { filesJobDefinitions } from '../modules/files/files.module';
import { projectsJobDefinitions } from '../modules/projects/projects.module';
import { sharingJobDefinitions } from '../modules/sharing/sharing.module';
import { teamsJobDefinitions } from '../modules/teams/teams.module';
import { uploadRequestJobDefinitions } from '../modules/upload-requests/upload-requests.module';

/**
 * Every kind of background job the app runs; a worker process consumes exactly these. A module adds
 * its definitions here; handlers receive the app's services (each declares the part it needs, and the
 * worker role, which hands them the app's services, is where the compiler checks that they fit: this
 * file does not import the services, which import it).
 */
export const jobDefinitions = [
  ...filesJobDefinitions,
  ...projectsJobDefinitions,
  ...sharingJobDefinitions,
  ...uploadRequestJobDefinitions,
  ...teamsJobDefinitions,
  ...authJobDefinitions,
  ...billingJobDefinitions,
];
