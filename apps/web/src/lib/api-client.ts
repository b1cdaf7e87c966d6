import type { ErrorBody } from '@atelier/contracts';

/** A failed call: `status` 0 means the request got no response at all (offline, server down). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    readonly errors?: Record<string, string[]>,
    /** Whom to ask for a new link and since when, for a link that ended (410). */
    readonly ended?: Required<Pick<ErrorBody, 'owner' | 'ended_at'>>,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get isNetworkError() {
    return this.status === 0;
  }

  /** The first server message for a form field, if the server named it. */
  fieldError(field: string): string | undefined {
    return this.errors?.[field]?.[0];
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  method?: Method;
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  signal?: AbortSignal;
  /** A 401/403 usually means the session ended; calls that expect anonymity opt out. */
  handleUnauthorized?: boolean;
}

let unauthorizedHandler: (() => void) | undefined;

/** The session module registers what a 401/403 does (sign the user out of the UI). */
export function setUnauthorizedHandler(handler: (() => void) | undefined) {
  unauthorizedHandler = handler;
}

export function readCookie(name: string): string | undefined {
  const prefix = `${name}=`;
  const found = document.cookie.split('; ').find((part) => part.startsWith(prefix));
  return found ? decodeURIComponent(found.slice(prefix.length)) : undefined;
}

/** The XSRF echo for a state change; over https the server names its cookie with the `__Host-` prefix. */
export function xsrfHeaders(): Record<string, string> {
  const xsrf = readCookie('__Host-XSRF-TOKEN') ?? readCookie('XSRF-TOKEN');
  return xsrf ? { 'X-XSRF-TOKEN': xsrf } : {};
}

function withQuery(path: string, query: RequestOptions['query']) {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

async function send(path: string, options: RequestOptions): Promise<Response> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'X-Requested-With': 'XMLHttpRequest',
  };
  const isForm = options.body instanceof FormData;
  if (options.body !== undefined && !isForm) headers['Content-Type'] = 'application/json';
  if (method !== 'GET') Object.assign(headers, xsrfHeaders());
  try {
    return await fetch(withQuery(path, options.query), {
      method,
      headers,
      credentials: 'same-origin',
      signal: options.signal,
      body:
        options.body === undefined
          ? undefined
          : isForm
            ? (options.body as FormData)
            : JSON.stringify(options.body),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, error instanceof Error ? error.message : 'Network error');
  }
}

async function errorFrom(response: Response): Promise<ApiError> {
  const body = (await response.json().catch(() => undefined)) as Partial<ErrorBody> | undefined;
  const ended = body?.owner && body.ended_at ? { owner: body.owner, ended_at: body.ended_at } : undefined;
  return new ApiError(response.status, body?.message ?? response.statusText, body?.code, body?.errors, ended);
}

/** Calls the Atelier API with the session cookie, the XSRF echo and the AJAX marker. */
export async function apiRequest<T = void>(path: string, options: RequestOptions = {}): Promise<T> {
  let response = await send(path, options);
  // A missing or rotated XSRF cookie: any GET sets a fresh one, then the change is sent once more.
  if (response.status === 419) {
    await send('/api/ping', {});
    response = await send(path, options);
  }
  if (!response.ok) {
    const error = await errorFrom(response);
    if ((error.status === 401 || error.status === 403) && options.handleUnauthorized !== false) {
      unauthorizedHandler?.();
    }
    throw error;
  }
  if (response.status === 204) return undefined as T;
  const type = response.headers.get('content-type') ?? '';
  return (type.includes('json') ? await response.json() : undefined) as T;
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) => apiRequest<T>(path, options),
  post: <T = void>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
};
