import type { RealtimeEvent, ServerToClientEvents } from '@atelier/contracts';
import { REALTIME_PATH } from '@atelier/contracts/constants';
import type { Socket } from 'socket.io-client';
import { afterNextPaint } from './after-paint';

/**
 * The signed-in user's realtime connection: one Socket.IO socket per tab, opened on the first
 * subscription and shared by every screen. The server authenticates it by the session cookie and
 * joins it to the user's private room; the client only listens.
 */
let opening: Promise<Socket<ServerToClientEvents>> | null = null;
let subscribers = 0;

/**
 * The socket, once open. Socket.IO's client (12 KB compressed) loads after the next paint: screens
 * subscribe while they first render, and a cold load's first frame should not wait to run it.
 */
function connect(): Promise<Socket<ServerToClientEvents>> {
  opening ??= new Promise<void>((resolve) => afterNextPaint(resolve))
    .then(() => import('socket.io-client'))
    .then(({ io }) =>
      io({ path: REALTIME_PATH, withCredentials: true, transports: ['websocket', 'polling'] }),
    );
  return opening;
}

/** Calls `handler` with every `event` until the returned function is called. */
export function subscribeRealtime<E extends RealtimeEvent>(
  event: E,
  handler: ServerToClientEvents[E],
): () => void {
  // Socket.IO's typed `on` cannot follow a generic event name; the signature above keeps callers typed.
  type Listener = { on(e: string, h: unknown): void; off(e: string, h: unknown): void };
  let target: Listener | null = null;
  let subscribed = true;
  subscribers += 1;
  void connect().then((socket) => {
    if (!subscribed) return;
    target = socket as unknown as Listener;
    target.on(event, handler);
  });
  return () => {
    subscribed = false;
    target?.off(event, handler);
    subscribers -= 1;
    if (subscribers > 0) return;
    // The last one closes the socket, once open; a later subscription opens a new one.
    const closing = opening;
    opening = null;
    void closing?.then((socket) => socket.close());
  };
}
