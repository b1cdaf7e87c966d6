import { LinkedSocialAccounts, SocialRedirectAnswer, SocialRedirectQuery } from '@atelier/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { mailingRateLimit } from '../../plugins/rate-limit.plugin';
import { currentUser } from '../../plugins/session.plugin';
import { signIn } from '../auth/sign-in';
import type { CallbackOutcome } from './social-sign-in.service';

/** Binds a provider round trip to the browser that started it; sent only to the callback. */
const BROWSER_COOKIE = 'atelier_social';
const CALLBACK_PATH = '/socialite';

// Any name: one that is not a configured, enabled provider is a 404 like any other unknown one.
const ProviderParams = z.object({ provider: z.string().min(1).max(100) });
const CallbackQuery = z.record(z.string().max(100), z.string().max(4096));

/** Where the browser goes after the callback; the web pages read the query. */
function destination(outcome: CallbackOutcome, signedIn?: 'session' | 'two_factor'): string {
  if (outcome.result === 'linked') return `/user/profile?linked=${encodeURIComponent(outcome.provider)}`;
  if (outcome.result === 'refused')
    return `${outcome.linking ? '/user/profile' : '/sign-in'}?social_error=${outcome.error}`;
  // The sign-in page sends a signed-in person home, or asks for the second factor.
  return signedIn === 'two_factor' ? '/sign-in?two_factor=1' : '/sign-in';
}

export const socialSignInRoutes: FastifyPluginAsyncZod = async (app) => {
  const { socialSignIn, env } = app.deps;
  // Both calls cost a provider round trip or a state lookup: held to the token-testing rate.
  const throttled = mailingRateLimit(env);

  app.get(
    '/api/socialite/:provider/redirect',
    {
      schema: {
        tags: ['auth'],
        params: ProviderParams,
        querystring: SocialRedirectQuery,
        response: { 200: SocialRedirectAnswer },
      },
      config: throttled,
    },
    async (request, reply) => {
      const linking = request.query.intent === 'link';
      if (linking) await app.requireUser(request);
      const { url, browserToken } = await socialSignIn.begin(
        request.params.provider,
        linking ? currentUser(request) : null,
      );
      reply.setCookie(BROWSER_COOKIE, browserToken, {
        path: CALLBACK_PATH,
        httpOnly: true,
        // Lax: the provider sends the browser back with a top-level GET, which carries it.
        sameSite: 'lax',
        secure: env.appUrl.startsWith('https://'),
        maxAge: 15 * 60,
      });
      return { data: { url } };
    },
  );

  // The provider's redirect back: a browser navigation, so every answer is a redirect.
  app.get(
    '/socialite/:provider/callback',
    { schema: { tags: ['auth'], params: ProviderParams, querystring: CallbackQuery }, config: throttled },
    async (request, reply) => {
      const outcome = await socialSignIn.complete({
        provider: request.params.provider,
        query: request.query,
        browserToken: request.cookies[BROWSER_COOKIE],
        sessionUser: await request.sessionUser(),
      });
      reply.clearCookie(BROWSER_COOKIE, { path: CALLBACK_PATH });
      const signedIn = outcome.result === 'sign_in' ? await signIn(request, reply, outcome.user) : undefined;
      return reply.redirect(destination(outcome, signedIn));
    },
  );

  app.get(
    '/api/user/social-accounts',
    { preHandler: app.requireUser, schema: { tags: ['account'], response: { 200: LinkedSocialAccounts } } },
    async (request) => socialSignIn.linkedAccounts(currentUser(request)),
  );

  app.delete(
    '/api/user/social-accounts/:provider',
    { preHandler: app.requireUser, schema: { tags: ['account'], params: ProviderParams } },
    async (request, reply) => {
      await socialSignIn.unlink(currentUser(request), request.params.provider);
      return reply.status(204).send();
    },
  );
};
