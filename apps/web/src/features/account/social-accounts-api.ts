import type { LinkedSocialAccounts } from '@atelier/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api, apiRequest } from '../../lib/api-client';

export const socialAccountsQuery = queryOptions({
  queryKey: ['social-accounts'],
  queryFn: () => api.get<LinkedSocialAccounts>('/api/user/social-accounts'),
});

/** The provider's sign-in address for this browser; `link` connects it to the signed-in account. */
export async function startSocialRedirect(provider: string, intent: 'sign_in' | 'link'): Promise<string> {
  const answer = await api.get<unknown>(
    `/api/socialite/${encodeURIComponent(provider)}/redirect${intent === 'link' ? '?intent=link' : ''}`,
  );
  // Loaded when needed: the sign-in page shows these buttons and downloads no schema (nor zod) for them.
  const { SocialRedirectAnswer } = await import('../auth/sign-in-schemas');
  return SocialRedirectAnswer.parse(answer).data.url;
}

export function unlinkSocialAccount(provider: string): Promise<void> {
  return apiRequest(`/api/user/social-accounts/${encodeURIComponent(provider)}`, { method: 'DELETE' });
}
