import { billingTasks } from '../modules/billing/billing.tasks';
import { filesTasks } from '../modules/files/files.tasks';
import { projectsTasks } from '../modules/projects/render-sweep';
import { sharingTasks } from '../modules/sharing/sharing.tasks';
import { webdavTasks } from '../modules/webdav/webdav.tasks';
import type { AppDeps } from '../services';
import type { PeriodicTask } from './scheduler';

/** Every periodic task of the app; the worker role's scheduler runs exactly these. */
export function periodicTasks(deps: AppDeps): PeriodicTask[] {
  return [
    ...billingTasks(deps),
    ...filesTasks(deps),
    ...sharingTasks(deps),
    ...projectsTasks(deps),
    ...webdavTasks(deps),
  ];
}
