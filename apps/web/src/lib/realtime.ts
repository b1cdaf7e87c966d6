import type { RealtimeEvent, ServerToClientEvents } from '@atelier/contracts';
import { REALTIME_PATH } from '@atelier/contracts/constants';
import { io, type Socket } from 'socket.io-client';

/**
 * The signed-in user's realtime connection: one Socket.IO socket per tab, opened on the first
 * subscription and shared by every screen. The server authenticates it by the session cookie and
 * joins it to the user's private room; the client only listens.
 */
let socket: Socket<ServerToClientEvents> | null = null;
let subscribers = 0;

function connect(): Socket<ServerToClientEvents> {
  socket ??= io({ path: REALTIME_PATH, withCredentials: true, transports: ['websocket', 'polling'] });
  return socket;
}

/** Calls `handler` with every `event` until the returned function is called. */
export function subscribeRealtime<E extends RealtimeEvent>(
  event: E,
  handler: ServerToClientEvents[E],
): () => void {
  const current = connect();
  subscribers += 1;
  // Socket.IO's typed `on` cannot follow a generic event name; the signature above keeps callers typed.
  const target = current as unknown as { on(e: string, h: unknown): void; off(e: string, h: unknown): void };
  target.on(event, handler);
  return () => {
    target.off(event, handler);
    subscribers -= 1;
    if (subscribers === 0) {
      current.close();
      if (socket === current) socket = null;
    }
  };
}
