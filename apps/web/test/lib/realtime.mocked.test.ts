import { afterEach, describe, expect, it, vi } from 'vitest';
import { subscribeRealtime } from '../../src/lib/realtime';

// A socket that records its listeners and can deliver an event to them.
const sockets: { listeners: Map<string, unknown>; close: ReturnType<typeof vi.fn> }[] = [];
const io = vi.hoisted(() => vi.fn());
vi.mock('socket.io-client', () => ({ io }));
io.mockImplementation(() => {
  const listeners = new Map<string, unknown>();
  const socket = {
    listeners,
    close: vi.fn(),
    on: (event: string, handler: unknown) => listeners.set(event, handler),
    off: (event: string) => listeners.delete(event),
  };
  sockets.push(socket);
  return socket;
});

afterEach(() => {
  sockets.length = 0;
  io.mockClear();
});

describe('subscribeRealtime', () => {
  it('opens the socket after the next paint, and delivers events from then on', async () => {
    const handler = vi.fn();
    const unsubscribe = subscribeRealtime('TestWebsocketConnection', handler);
    // Not while the screen renders: the client loads once the frame is painted.
    expect(io).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(sockets[0]?.listeners.has('TestWebsocketConnection')).toBe(true));
    (sockets[0]!.listeners.get('TestWebsocketConnection') as () => void)();
    expect(handler).toHaveBeenCalledOnce();
    unsubscribe();
    expect(sockets[0]!.listeners.size).toBe(0);
    await vi.waitFor(() => expect(sockets[0]!.close).toHaveBeenCalledOnce());
  });

  it('closes a socket whose last subscription ended before it opened, and opens a new one later', async () => {
    subscribeRealtime('TestWebsocketConnection', vi.fn())();
    await vi.waitFor(() => expect(sockets[0]?.close).toHaveBeenCalledOnce());
    expect(sockets[0]!.listeners.size).toBe(0);
    subscribeRealtime('TestWebsocketConnection', vi.fn());
    await vi.waitFor(() => expect(sockets[1]?.listeners.size).toBe(1));
    expect(io).toHaveBeenCalledTimes(2);
  });
});
