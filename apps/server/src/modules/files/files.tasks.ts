import type { PeriodicTask } from '../../jobs/scheduler';
import type { UploadService } from './upload.service';
import type { VersionsService } from './versions.service';

/** An upload nobody continued for a day is abandoned. */
export const ABANDONED_UPLOAD_MS = 24 * 60 * 60_000;

/**
 * The files module's periodic work, every hour: abandoned chunked uploads are removed, and versions
 * past their retention are let go of.
 */
export function filesTasks(services: { uploads: UploadService; versions: VersionsService }): PeriodicTask[] {
  return [
    {
      name: 'files.upload-sweep',
      everyMs: 60 * 60_000,
      run: (at) => services.uploads.sweepAbandoned(ABANDONED_UPLOAD_MS, at),
    },
    {
      name: 'files.version-retention',
      everyMs: 60 * 60_000,
      run: (at) => services.versions.thin(at),
    },
  ];
}
