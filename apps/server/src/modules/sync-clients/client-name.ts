import { APP_PASSWORD_NAME_MAX } from '@atelier/contracts';

/** The operating systems the desktop clients name in their agent's first parentheses. */
const DESKTOP_SYSTEMS: Record<string, string> = { Linux: 'Linux', Windows: 'Windows', Macintosh: 'macOS' };
const UNKNOWN = 'Unknown client';
/** What follows ` mirall/`: the version, then the product in parentheses. */
const DESKTOP_ENGINE = /^ mirall\/(\d+(?:\.\d+){0,3})(?![\d.])\S*\s+\((\w+)/;
const FIRST_PARENTHESISED_WORD = /^[^(]*\((\w+)/;

/**
 * A sync client's User-Agent in words, for the page that asks the person and for the app password's
 * name: "Nextcloud desktop 3.7.3 on Linux", "Nextcloud Android 3.26.0", or the agent itself.
 */
export function clientName(userAgent: string): string {
  // The desktop clients (Nextcloud's and ownCloud's share the engine): `Mozilla/5.0 (Linux) mirall/3.7.3git (Nextcloud, …)`.
  // Read in two anchored pieces around ` mirall/`: one search over the whole agent could backtrack.
  const engine = userAgent.indexOf(' mirall/');
  const desktop = engine === -1 ? null : DESKTOP_ENGINE.exec(userAgent.slice(engine));
  if (desktop) {
    const named = FIRST_PARENTHESISED_WORD.exec(userAgent.slice(0, engine))?.[1] ?? '';
    // Own keys only: an agent saying `(constructor)` names no system.
    const system = Object.hasOwn(DESKTOP_SYSTEMS, named) ? DESKTOP_SYSTEMS[named] : undefined;
    return `${desktop[2]} desktop ${desktop[1]}${system ? ` on ${system}` : ''}`;
  }
  // The mobile apps: `Mozilla/5.0 (Android) Nextcloud-android/3.26.0`, `… Nextcloud-iOS/4.9.0`.
  const mobile = /\b(Nextcloud|ownCloud)-(android|iOS)\/(\d+(?:\.\d+){0,3})/i.exec(userAgent);
  if (mobile) return `${mobile[1]} ${mobile[2]!.toLowerCase() === 'ios' ? 'iOS' : 'Android'} ${mobile[3]}`;
  const text = userAgent.trim();
  if (!text) return UNKNOWN;
  return text.length > APP_PASSWORD_NAME_MAX ? `${text.slice(0, APP_PASSWORD_NAME_MAX - 1)}…` : text;
}
