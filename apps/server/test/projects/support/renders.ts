import type { RenderJobList } from '@atelier/contracts';
import { expect } from 'vitest';
import type { TestAgent } from '../../support/agent';
import type { TestApp } from '../../support/test-app';

/** What the studio page sends to render a project. */
export interface RenderRequest {
  project_id: string;
  category_id: string;
  variants?: string[];
}

/** Asks for a project's renders as the studio page does, and runs each at once as the worker would. */
export async function renderNow(
  t: TestApp,
  agent: TestAgent,
  request: RenderRequest,
): Promise<RenderJobList['data']> {
  const answer = await agent.post('/api/generateAssets', request);
  expect(answer.statusCode, answer.body).toBe(201);
  const jobs = answer.json<RenderJobList>().data;
  for (const job of jobs)
    await t.deps.projectRenders.run(job.id, {
      attempt: 1,
      failures: 0,
      retries: 0,
      signal: new AbortController().signal,
    });
  return jobs;
}
