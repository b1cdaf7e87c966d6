import { APP_CHUNK_LOAD_TIMEOUT_MS } from '@atelier/contracts/constants';

/** Why a page's code did not arrive: it took too long, the server no longer has it, or it failed. */
export type ChunkFailureType = 'timeout' | 'missing' | 'error';

/**
 * A page module that could not be loaded, with its type and address: reported for whoever looks at
 * the browser's console (an operator after a deploy), never shown to the person, who gets the route
 * error page with its reload button.
 */
export class ChunkLoadError extends Error {
  constructor(
    readonly type: ChunkFailureType,
    readonly address: string,
    options?: { cause?: unknown },
  ) {
    super(`page code failed to load (${type}): ${address}`, options);
    this.name = 'ChunkLoadError';
  }
}

/** The address a browser's dynamic-import failure names ("…imported module: https://…/x.js"). */
function addressIn(error: unknown): string | undefined {
  return error instanceof Error ? /(https?:\/\/\S+|\/assets\/\S+)/.exec(error.message)?.[1] : undefined;
}

function classify(error: unknown, page: string): ChunkLoadError {
  const address = addressIn(error);
  // A module the server no longer has (a deploy replaced it) fails to fetch; anything else is an error.
  const missing = error instanceof TypeError && address !== undefined;
  return new ChunkLoadError(missing ? 'missing' : 'error', address ?? page, { cause: error });
}

/**
 * Loads a page's module, giving up after APP_CHUNK_LOAD_TIMEOUT_MS; a failure is reported with its
 * type and address and thrown on to the router.
 */
export async function loadChunk<M>(
  importer: () => Promise<M>,
  timeoutMs = APP_CHUNK_LOAD_TIMEOUT_MS,
): Promise<M> {
  const page = window.location.pathname;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ChunkLoadError('timeout', page)), timeoutMs);
  });
  try {
    return await Promise.race([importer(), timedOut]);
  } catch (error) {
    const failure = error instanceof ChunkLoadError ? error : classify(error, page);
    console.error(failure.message);
    throw failure;
  } finally {
    clearTimeout(timer);
  }
}
