import { APP_PASSWORD_NAME_MAX } from '@atelier/contracts';

/** The operating systems the desktop clients name in their agent's first parentheses. */
const DESKTOP_SYSTEMS: Record<string, string> = { Linux: 'Linux', Windows: 'Windows', Macintosh: 'macOS' };
const UNKNOWN = 'Unknown client';

/**
 * A sync client's User-Agent in words, for the page that asks the person and for the app password's
 * name: "Nextcloud desktop 3.7.3 on Linux", "Nextcloud Android 3.26.0", or the agent itself.
 */
export function clientName(userAgent: string): string {
  // The desktop clients (Nextcloud's and ownCloud's share the engine): `Mozilla/5.0 (Linux) mirall/3.7.3git (Nextcloud, …)`.
  const desktop = /\((\w+)[^)]*\)\s+mirall\/(\d+(?:\.\d+){0,3})\S*\s+\((\w+)/.exec(userAgent);
  if (desktop) {
    const system = DESKTOP_SYSTEMS[desktop[1]!];
    return `${desktop[3]} desktop ${desktop[2]}${system ? ` on ${system}` : ''}`;
  }
  // The mobile apps: `Mozilla/5.0 (Android) Nextcloud-android/3.26.0`, `… Nextcloud-iOS/4.9.0`.
  const mobile = /\b(Nextcloud|ownCloud)-(android|iOS)\/(\d+(?:\.\d+){0,3})/i.exec(userAgent);
  if (mobile) return `${mobile[1]} ${mobile[2]!.toLowerCase() === 'ios' ? 'iOS' : 'Android'} ${mobile[3]}`;
  const text = userAgent.trim();
  if (!text) return UNKNOWN;
  return text.length > APP_PASSWORD_NAME_MAX ? `${text.slice(0, APP_PASSWORD_NAME_MAX - 1)}…` : text;
}
