import { APP_CHUNK_LOAD_TIMEOUT_MS } from '@atelier/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChunkLoadError, loadChunk } from '../../src/lib/chunk-loader';

describe("the application loader's page chunks", () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('hands over the module it loaded', async () => {
    expect(await loadChunk(async () => ({ Page: 'page' }))).toEqual({ Page: 'page' });
  });

  it(`gives up after ${APP_CHUNK_LOAD_TIMEOUT_MS / 1000} s, reporting a timeout with the page's address`, async () => {
    vi.useFakeTimers();
    const report = vi.spyOn(console, 'error').mockImplementation(() => {});
    const loading = loadChunk(() => new Promise(() => {}));
    const outcome = loading.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(APP_CHUNK_LOAD_TIMEOUT_MS - 1);
    expect(report).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    const error = (await outcome) as ChunkLoadError;
    expect(error).toBeInstanceOf(ChunkLoadError);
    expect(error).toMatchObject({ type: 'timeout', address: window.location.pathname });
    expect(report).toHaveBeenCalledWith(expect.stringContaining('(timeout)'));
  });

  it('tells a module the server no longer has (a deploy replaced it) from any other failure', async () => {
    const report = vi.spyOn(console, 'error').mockImplementation(() => {});
    const gone = 'http://atelier.test/assets/files-page-Ab12Cd34.js';
    await expect(
      loadChunk(() => Promise.reject(new TypeError(`Failed to fetch dynamically imported module: ${gone}`))),
    ).rejects.toMatchObject({ type: 'missing', address: gone });
    await expect(loadChunk(() => Promise.reject(new Error('boom')))).rejects.toMatchObject({
      type: 'error',
      address: window.location.pathname,
    });
    expect(report).toHaveBeenCalledTimes(2);
  });
});
