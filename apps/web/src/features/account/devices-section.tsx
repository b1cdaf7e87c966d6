import type { DeviceKind, SessionResource } from '@atelier/contracts';
import type { TFunction } from 'i18next';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Globe, Laptop, Smartphone, Tablet, type LucideIcon } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pushToast } from '../../components/overlays/overlay-store';
import { useGenericError } from '../../components/overlays/use-generic-error';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { relativeTime } from '../../lib/relative-time';
import { AccountSection } from './account-section';
import { devicesQuery, endDevice } from './devices-api';

const DEVICE_ICONS: Record<DeviceKind, LucideIcon> = {
  desktop: Laptop,
  mobile: Smartphone,
  tablet: Tablet,
  other: Globe,
};

/** The server refreshes a session's last activity at most every five minutes: within that it is recent. */
const RECENT_MS = 5 * 60_000;

/** When the device was last active, in words; "now" for the one asking. */
function lastActive(device: SessionResource['attributes'], t: TFunction, locale: string): string {
  if (device.current) return t('devices.active_now');
  if (Date.now() - new Date(device.last_active_at).getTime() < RECENT_MS) return t('devices.active_recently');
  return t('devices.last_active', { when: relativeTime(device.last_active_at, locale) });
}

/** The profile's signed-in devices: this one first and marked, every other one can be signed out. */
export function DevicesSection() {
  const { t } = useTranslation();
  const devices = useQuery(devicesQuery).data?.data;
  // The current device leads; the others follow as the server sorts them, most recently active first.
  const sorted =
    devices && [...devices].sort((a, b) => Number(b.attributes.current) - Number(a.attributes.current));

  return (
    <AccountSection title={t('devices.title')} lead={t('devices.lead')}>
      {sorted ? (
        <ul
          className="flex flex-col divide-y divide-line rounded-xl border border-line"
          aria-label={t('devices.title')}
        >
          {sorted.map((device) => (
            <DeviceLine key={device.id} device={device} />
          ))}
        </ul>
      ) : (
        <Spinner className="size-5 self-center text-muted" />
      )}
    </AccountSection>
  );
}

function DeviceLine({ device }: { device: SessionResource }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const showGenericError = useGenericError();
  const [ending, setEnding] = useState(false);
  const { browser, os, ip, current } = device.attributes;
  const Icon = DEVICE_ICONS[device.attributes.device];
  const name =
    browser && os
      ? t('devices.browser_on_os', { browser, os })
      : (browser ?? os ?? t('devices.unknown_browser'));

  const signOut = async () => {
    setEnding(true);
    try {
      await endDevice(device.id);
      pushToast('success', t('devices.signed_out', { device: name }));
    } catch {
      showGenericError();
    } finally {
      setEnding(false);
      await queryClient.invalidateQueries(devicesQuery);
    }
  };

  return (
    <li className="flex items-center gap-3 px-4 py-3">
      <span className="grid size-10 shrink-0 place-items-center rounded-lg bg-surface-2 text-muted">
        <Icon className="size-5" aria-hidden />
      </span>
      <div className="flex min-w-0 flex-1 flex-col gap-0.5">
        <span className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
          <span className="min-w-0 font-medium break-words">{name}</span>
          {current && (
            <span className="rounded-full bg-accent-soft px-2 py-0.5 text-xs font-medium text-accent">
              {t('devices.this_device')}
            </span>
          )}
        </span>
        <span className="text-sm break-words text-muted">
          {[ip ?? t('devices.unknown_address'), lastActive(device.attributes, t, i18n.language)].join(' · ')}
        </span>
      </div>
      {!current && (
        <Button
          variant="secondary"
          size="sm"
          loading={ending}
          aria-label={t('devices.sign_out_device', { device: name })}
          onClick={() => void signOut()}
        >
          {t('devices.sign_out')}
        </Button>
      )}
    </li>
  );
}
