import type { PeriodicTask } from '../../jobs/scheduler';
import type { ChunkedUploadsService } from './webdav.chunked-uploads.service';

/** WebDAV's periodic work, every hour: transfers of chunked uploads nobody continued for a day are swept. */
export function webdavTasks(services: { chunkedUploads: ChunkedUploadsService }): PeriodicTask[] {
  return [
    {
      name: 'webdav.chunked-upload-sweep',
      everyMs: 60 * 60_000,
      run: (at) => services.chunkedUploads.sweep(at),
    },
  ];
}
