import { z } from 'zod';
import { defineJob } from '../../jobs/job-definition';
import type { ModelPreviewService } from './model-preview.service';

export interface ModelPreviewJobServices {
  modelPreviews: ModelPreviewService;
}

/** The 3D preview thumbnails of a newly stored model file (STEP, STL, glTF…), made off the request path. */
export const modelPreviewJob = defineJob({
  id: 'projects.model-preview',
  payload: z.object({ itemId: z.string().uuid() }),
  handler:
    async () =>
    async (payload: { itemId: string }, { services }: { services: ModelPreviewJobServices }) => {
      await services.modelPreviews.generate(payload.itemId);
    },
  retries: 1,
  backoff: { type: 'exponential', delayMs: 10_000 },
  concurrency: 1,
});
