import { test as base } from '@playwright/test';
import { serverOrigin } from './artifacts';

export { expect } from '@playwright/test';
export type { APIRequestContext, Browser, Locator, Page, Request } from '@playwright/test';

/**
 * Playwright's `test` with its pages, API calls and `baseURL` pointed at the server of the test's
 * worker (one each, see E2E_WORKERS): journeys run side by side, never two on one instance.
 */
export const test = base.extend({
  // Playwright reads a fixture's dependencies from its first parameter, which must be a pattern.
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use, info) => use(serverOrigin(info.parallelIndex)),
});
