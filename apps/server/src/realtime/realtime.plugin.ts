import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { UserRow } from '../db/schema';
import { SETTINGS_TOPIC } from '../modules/settings/settings.service';
import { SESSION_COOKIE } from '../plugins/session.plugin';
import type { RealtimeRefusal } from './realtime.server';

/** Serves Socket.IO at /socket.io on an API process's HTTP server, signed in by the session cookie. */
export const realtimePlugin = fp(async (app: FastifyInstance) => {
  const { realtime, sessions, settings, env, changes } = app.deps;
  // A worker-only process serves no HTTP; its RealtimeServer only emits (through Redis).
  if (!env.SERVICES.includes('api')) return;

  // Socket.IO answers before Fastify's hooks, so it applies the installation gate of the API itself.
  const admission = async (sessionToken: string): Promise<UserRow | RealtimeRefusal> => {
    const { installed, maintenance } = await settings.all();
    if (!installed) return 'not_installed';
    const user = await sessions.resolve(sessionToken);
    if (!user) return 'unauthenticated';
    return maintenance && user.role !== 'admin' ? 'maintenance' : user;
  };

  realtime.listen(app.server, {
    authenticate: async (cookieHeader) => {
      const sessionToken = cookieHeader ? app.parseCookie(cookieHeader)[SESSION_COOKIE] : undefined;
      if (!sessionToken) return 'unauthenticated';
      const admitted = await admission(sessionToken);
      return typeof admitted === 'string' ? admitted : { userId: admitted.id, sessionToken };
    },
    isSessionActive: async (sessionToken) => typeof (await admission(sessionToken)) !== 'string',
  });
  // Maintenance switched on (or realtime off), on any node: every node lets go of the sockets that may
  // no longer be open now, not at the next periodic check.
  changes.on(SETTINGS_TOPIC, () => void realtime.revalidateSockets());
  app.addHook('preClose', async () => realtime.disconnectLocal());
});
