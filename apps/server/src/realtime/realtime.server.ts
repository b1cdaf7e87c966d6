import type { Server as HttpServer, IncomingMessage } from 'node:http';
import { createAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
import { Server, type Socket } from 'socket.io';
import {
  REALTIME_PATH,
  userRoom,
  type RealtimeEvent,
  type RealtimePayload,
  type ServerToClientEvents,
} from '@atelier/contracts';
import type { Logger } from 'pino';
import { hashToken } from '../lib/tokens';
import type { SettingsService } from '../modules/settings/settings.service';

/** Every socket of one sign-in; named by the token's hash (the session's stored id), which is all that travels through Redis. */
function sessionRoom(sessionToken: string): string {
  return storedSessionRoom(hashToken(sessionToken));
}

function storedSessionRoom(sessionIdHash: string): string {
  return `session.${sessionIdHash}`;
}

const LOST_REDIS_STATES = new Set(['reconnecting', 'close', 'end']);

/** What the rest of the server calls to reach a signed-in user's open tabs. */
export interface Broadcaster {
  emitToUser<E extends RealtimeEvent>(userId: string, event: E, payload: RealtimePayload<E>): Promise<void>;
  /** One event to several users, each tab once. */
  emitToUsers<E extends RealtimeEvent>(
    userIds: readonly string[],
    event: E,
    payload: RealtimePayload<E>,
  ): Promise<void>;
}

interface SocketData {
  userId: string;
  /** The session cookie the socket was opened with, to notice a sign-out. */
  sessionToken: string;
}

type RealtimeSocket = Socket<Record<string, never>, ServerToClientEvents, Record<string, never>, SocketData>;

/** Why a handshake was refused; the client gets it as the connect_error message. */
export type RealtimeRefusal = 'unauthenticated' | 'not_installed' | 'maintenance';

export interface RealtimeAuthenticator {
  /** The user id and session token behind a Cookie header, or why they may not hold a socket. */
  authenticate(
    cookieHeader: string | undefined,
  ): Promise<{ userId: string; sessionToken: string } | RealtimeRefusal>;
  /** Whether the session may still hold a socket (not signed out, not expired, not shut out). */
  isSessionActive(sessionToken: string): Promise<boolean>;
}

export interface RealtimeOptions {
  redisUrl?: string;
  /** The instance's REDIS_PREFIX: its processes' events travel under it, apart from other instances'. */
  redisPrefix: string;
  settings: SettingsService;
  /** Public base URL; WebSocket handshakes from other origins are refused. */
  appUrl: string;
  /** How often open sockets are checked against their session. */
  revalidateMs?: number;
  logger?: Pick<Logger, 'warn'>;
}

/**
 * Socket.IO for the whole server. Every process builds one: API processes attach it to their HTTP
 * server and authenticate sockets by the session cookie; a worker process only emits. With Redis the
 * adapter publishes each emit to every process, so an event from a worker reaches a browser connected
 * to any API node. The `null` broadcasting driver (instance setting) refuses sockets and drops events.
 */
export class RealtimeServer implements Broadcaster {
  readonly io: Server<Record<string, never>, ServerToClientEvents, Record<string, never>, SocketData>;
  private readonly redis: Redis[] = [];
  private revalidateTimer: NodeJS.Timeout | undefined;
  private auth: RealtimeAuthenticator | null = null;
  private pub: Redis | null = null;

  constructor(private readonly options: RealtimeOptions) {
    this.io = new Server({
      path: REALTIME_PATH,
      serveClient: false,
      allowRequest: (req, cb) => cb(null, this.isSameOrigin(req)),
    });
    if (options.redisUrl) {
      // The adapter publishes without awaiting: a command that failed after ioredis's retries would be
      // an unhandled rejection, so published events wait for a reconnect instead (see emitToUser).
      const pub = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
      const sub = pub.duplicate();
      for (const client of [pub, sub]) this.reportOutages(client);
      this.redis.push(pub, sub);
      this.pub = pub;
      this.io.adapter(createAdapter(pub, sub, { key: `${options.redisPrefix}:socket.io` }));
    }
  }

  async enabled(): Promise<boolean> {
    return (await this.options.settings.get('broadcasting_driver')) !== 'null';
  }

  /** Best effort: what the event reports is stored elsewhere, so a failed push is logged, never thrown. */
  emitToUser<E extends RealtimeEvent>(userId: string, event: E, payload: RealtimePayload<E>): Promise<void> {
    return this.emit(this.io.to(userRoom(userId)), event, payload);
  }

  /** As emitToUser, for several users in one emit (one message through Redis; a socket in two rooms gets it once). */
  emitToUsers<E extends RealtimeEvent>(
    userIds: readonly string[],
    event: E,
    payload: RealtimePayload<E>,
  ): Promise<void> {
    return this.emit(this.io.to([...new Set(userIds)].map(userRoom)), event, payload);
  }

  /** News for every open tab, signed in as anyone (e.g. changed strings); best effort like emitToUser. */
  emitToEveryone<E extends RealtimeEvent>(event: E, payload: RealtimePayload<E>): Promise<void> {
    return this.emit(this.io, event, payload);
  }

  private async emit<E extends RealtimeEvent>(
    target: { emit(event: string, payload: unknown): unknown },
    event: E,
    payload: RealtimePayload<E>,
  ): Promise<void> {
    try {
      if (!(await this.enabled())) return;
      // While Redis is lost, events are dropped rather than queued to arrive stale after it returns;
      // during the first connect they wait in ioredis's queue (a worker may emit right after start).
      if (this.pub && LOST_REDIS_STATES.has(this.pub.status)) {
        this.options.logger?.warn({ event }, 'realtime event dropped: Redis is not connected');
        return;
      }
      target.emit(event, payload);
    } catch (error) {
      this.options.logger?.warn({ err: error, event }, 'realtime event not sent');
    }
  }

  /** Serves sockets on an API process's HTTP server. */
  listen(httpServer: HttpServer, auth: RealtimeAuthenticator): void {
    this.io.attach(httpServer);
    this.io.use((socket, next) => {
      const refuse = (error: Error) => {
        next(error);
        // Socket.IO keeps a refused client's connection open for another try (until its connect
        // timeout); a refused caller gets its answer and nothing more. Socket.IO sends the answer on
        // the next tick, and close() waits for what is still to be written.
        setImmediate(() => socket.conn.close());
      };
      this.admit(socket, auth).then(
        (error) => (error ? refuse(error) : next()),
        () => refuse(new Error('internal')),
      );
    });
    // Joining happens only here, after the session check; clients have no way to join a room.
    this.io.on(
      'connection',
      (socket) => void socket.join([userRoom(socket.data.userId), sessionRoom(socket.data.sessionToken)]),
    );
    this.auth = auth;
    this.revalidateTimer = setInterval(
      () => void this.revalidateSockets(),
      this.options.revalidateMs ?? 60_000,
    );
    this.revalidateTimer.unref();
  }

  /** Closes the sockets of a session that ended (signed out, or ended from another device), on every API node. */
  disconnectStoredSession(sessionIdHash: string): void {
    this.io.in(storedSessionRoom(sessionIdHash)).disconnectSockets(true);
  }

  /** Closes the sockets of every session of a user but one (a password change), on every API node. */
  disconnectUserExcept(userId: string, keptSessionToken: string): void {
    this.io.in(userRoom(userId)).except(sessionRoom(keptSessionToken)).disconnectSockets(true);
  }

  /** Closes every socket of a user (their password was reset or set, or the account deleted), on every API node. */
  disconnectUser(userId: string): void {
    this.io.in(userRoom(userId)).disconnectSockets(true);
  }

  /** Disconnects this process's sockets (before the HTTP server stops). */
  disconnectLocal(): void {
    this.io.local.disconnectSockets(true);
  }

  async close(): Promise<void> {
    clearInterval(this.revalidateTimer);
    // A worker's server was never attached to HTTP: only its adapter (Redis subscriptions) needs closing.
    if (this.auth) await this.io.close();
    else await this.io.of('/').adapter.close();
    await Promise.all(this.redis.map((r) => r.quit().catch(() => r.disconnect())));
  }

  private async admit(socket: RealtimeSocket, auth: RealtimeAuthenticator): Promise<Error | undefined> {
    if (!(await this.enabled())) return new Error('realtime_disabled');
    const session = await auth.authenticate(socket.request.headers.cookie);
    if (typeof session === 'string') return new Error(session);
    socket.data.userId = session.userId;
    socket.data.sessionToken = session.sessionToken;
    return undefined;
  }

  /**
   * Sockets outlive the request that opened them: closes this process's sockets whose session ended
   * (sign-out, expiry) or may no longer hold one (maintenance), or all of them once realtime was
   * switched off. Runs on a timer.
   */
  async revalidateSockets(): Promise<void> {
    const auth = this.auth;
    if (!auth) return;
    const enabled = await this.enabled().catch(() => true);
    for (const socket of this.io.of('/').sockets.values()) {
      const active = enabled && (await auth.isSessionActive(socket.data.sessionToken).catch(() => true));
      if (!active) socket.disconnect(true);
    }
  }

  /** ioredis reports every failed reconnect; one line per outage is enough. */
  private reportOutages(client: Redis): void {
    let reported = false;
    client.on('error', (error: Error) => {
      if (reported) return;
      reported = true;
      this.options.logger?.warn(
        { err: error },
        'realtime: Redis unreachable, events are dropped until it returns',
      );
    });
    client.on('ready', () => (reported = false));
  }

  private isSameOrigin(req: IncomingMessage): boolean {
    const origin = req.headers.origin;
    // Non-browser clients send no Origin; browsers always do on cross-site requests.
    if (!origin) return true;
    if (origin === new URL(this.options.appUrl).origin) return true;
    try {
      return new URL(origin).host === req.headers.host;
    } catch {
      return false;
    }
  }
}
