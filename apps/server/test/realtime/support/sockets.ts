import { io, type Socket } from 'socket.io-client';
import { REALTIME_PATH, type ServerToClientEvents } from '@atelier/contracts';
import { SESSION_COOKIE } from '../../../src/plugins/session.plugin';

export type ClientSocket = Socket<ServerToClientEvents>;

/** A browser-like Socket.IO client: resolves once connected, rejects with the server's refusal. */
export function connectSocket(
  baseUrl: string,
  options: { session?: string; headers?: Record<string, string> } = {},
): Promise<ClientSocket> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.session) headers.cookie = `${SESSION_COOKIE}=${options.session}`;
  const socket: ClientSocket = io(baseUrl, {
    path: REALTIME_PATH,
    transports: ['websocket'],
    extraHeaders: headers,
    reconnection: false,
    forceNew: true,
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (error) => {
      socket.close();
      reject(error);
    });
  });
}

/** Every event a socket receives, in order, to assert on what did and did not arrive. */
export function recordEvents(socket: ClientSocket): Array<{ event: string; payload: unknown }> {
  const seen: Array<{ event: string; payload: unknown }> = [];
  socket.onAny((event: string, payload: unknown) => seen.push({ event, payload }));
  return seen;
}

/**
 * Runs `action`, then waits at most `withinMs` for `event` on the socket (it may arrive while the
 * action runs); resolves with its payload, fails when none came.
 */
export async function eventAfter(
  socket: ClientSocket,
  event: string,
  action: () => Promise<unknown>,
  withinMs: number,
): Promise<unknown> {
  let listener!: (name: string, payload: unknown) => void;
  const arrived = new Promise<unknown>((resolve) => {
    listener = (name, payload) => {
      if (name === event) resolve(payload);
    };
    socket.onAny(listener);
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    await action();
    return await Promise.race([
      arrived,
      new Promise((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`no ${event} within ${withinMs} ms`)), withinMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    socket.offAny(listener);
  }
}
