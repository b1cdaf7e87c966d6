import { SETUP_TOKEN_COOKIE } from '@atelier/contracts/constants';
import { useOutletContext } from 'react-router';
import { readCookie } from '../../lib/api-client';

/**
 * The one-time setup token the server printed with the wizard's link. It travels as a cookie, so
 * every wizard call carries it without the API client knowing about it.
 */
export function readSetupToken(): string | undefined {
  return readCookie(SETUP_TOKEN_COOKIE) || undefined;
}

export function saveSetupToken(token: string): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${SETUP_TOKEN_COOKIE}=${encodeURIComponent(token)}; Path=/; SameSite=Strict${secure}`;
}

export function forgetSetupToken(): void {
  document.cookie = `${SETUP_TOKEN_COOKIE}=; Path=/; Max-Age=0; SameSite=Strict`;
}

/** The printed link is `/install?token=…`: arriving by it keeps its token. */
export function keepTokenOfLink(search: string): string | undefined {
  const token = new URLSearchParams(search).get('token') || undefined;
  if (token) saveSetupToken(token);
  return token;
}

/** What the operator pasted: the printed link, or the token alone. */
export function tokenFromInput(input: string): string {
  const text = input.trim();
  try {
    return new URL(text).searchParams.get('token') ?? text;
  } catch {
    return text;
  }
}

/** What the wizard layout offers its steps: a step whose call was refused for the token asks again. */
export interface SetupTokenContext {
  rejectToken(): void;
}

export function useSetupTokenContext(): SetupTokenContext {
  return useOutletContext<SetupTokenContext>();
}
