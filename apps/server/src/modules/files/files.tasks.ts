import type { PeriodicTask } from '../../jobs/scheduler';
import type { UploadService } from './upload.service';

/** An upload nobody continued for a day is abandoned. */
export const ABANDONED_UPLOAD_MS = 24 * 60 * 60_000;

/** The files module's periodic work: abandoned chunked uploads are removed every hour. */
export function filesTasks(services: { uploads: UploadService }): PeriodicTask[] {
  return [
    {
      name: 'files.upload-sweep',
      everyMs: 60 * 60_000,
      run: (at) => services.uploads.sweepAbandoned(ABANDONED_UPLOAD_MS, at),
    },
  ];
}
