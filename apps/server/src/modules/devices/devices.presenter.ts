import type { DeviceKind, SessionResource } from '@atelier/contracts';
import Bowser from 'bowser';
import type { DeviceRow } from './devices.repository';

const KINDS: Record<string, DeviceKind> = { desktop: 'desktop', mobile: 'mobile', tablet: 'tablet' };

/** What a user agent says in words: "Firefox 128", "macOS 14.5", desktop; nulls where it says nothing. */
export function describeAgent(
  userAgent: string | null,
): Pick<SessionResource['attributes'], 'browser' | 'os' | 'device'> {
  if (!userAgent) return { browser: null, os: null, device: 'other' };
  const { browser, os, platform } = Bowser.parse(userAgent);
  const browserVersion = browser.version?.split('.')[0];
  return {
    browser: browser.name ? [browser.name, browserVersion].filter(Boolean).join(' ') : null,
    os: os.name ? [os.name, os.versionName ?? os.version].filter(Boolean).join(' ') : null,
    device: KINDS[platform.type ?? ''] ?? 'other',
  };
}

export function presentDevice(row: DeviceRow, currentIdHash: string | undefined): SessionResource {
  return {
    id: row.public_id,
    type: 'session',
    attributes: {
      created_at: row.created_at,
      last_active_at: row.last_active_at,
      ip: row.ip,
      user_agent: row.user_agent,
      ...describeAgent(row.user_agent),
      current: row.id === currentIdHash,
    },
  };
}
