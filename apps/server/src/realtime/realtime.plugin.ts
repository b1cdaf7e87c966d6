import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { SESSION_COOKIE } from '../plugins/session.plugin';

/** Serves Socket.IO at /socket.io on an API process's HTTP server, signed in by the session cookie. */
export const realtimePlugin = fp(async (app: FastifyInstance) => {
  const { realtime, sessions, env } = app.deps;
  // A worker-only process serves no HTTP; its RealtimeServer only emits (through Redis).
  if (!env.SERVICES.includes('api')) return;
  realtime.listen(app.server, {
    authenticate: async (cookieHeader) => {
      const sessionToken = cookieHeader ? app.parseCookie(cookieHeader)[SESSION_COOKIE] : undefined;
      if (!sessionToken) return null;
      const user = await sessions.resolve(sessionToken);
      return user ? { userId: user.id, sessionToken } : null;
    },
    isSessionActive: async (sessionToken) => Boolean(await sessions.resolve(sessionToken)),
  });
  app.addHook('preClose', async () => realtime.disconnectLocal());
});
