import type { SocialProviderKind } from '@atelier/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { pushToast } from '../../components/overlays/overlay-store';
import { useGenericError } from '../../components/overlays/use-generic-error';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ApiError } from '../../lib/api-client';
import { FormError } from '../auth/auth-heading';
import { useSocialError } from '../auth/social-buttons';
import { SocialProviderIcon, useSocialProviderLabel } from '../auth/social-provider-icon';
import { useConfig } from '../session/session-queries';
import { socialAccountsQuery, startSocialRedirect, unlinkSocialAccount } from './social-accounts-api';

interface ProviderRow {
  name: string;
  kind: SocialProviderKind | null;
  label: string | null;
  /** Set when linked: the provider's address for the person, if it shared one. */
  linked: { email: string | null } | null;
  /** Still offered by the instance (a linked provider the admin removed can only be disconnected). */
  offered: boolean;
}

/** The profile's connected accounts: every provider on offer and every linked one, to connect or disconnect. */
export function LinkedAccountsSection() {
  const { t } = useTranslation();
  const config = useConfig();
  const accounts = useQuery(socialAccountsQuery).data;
  const rows = providerRows(config.socialProviders, accounts?.data ?? []);
  useLinkedToast();
  const refusal = useSocialError();
  if (!accounts || rows.length === 0) return null;
  const onlyWayIn = !accounts.meta.password_set && accounts.data.length === 1;

  return (
    <Card className="flex flex-col gap-6 p-6 sm:p-8">
      <div className="flex flex-col gap-1">
        <h2 className="font-display text-xl font-semibold">{t('social.linked_title')}</h2>
        <p className="text-sm text-muted">{t('social.linked_lead')}</p>
      </div>
      <FormError message={refusal && t(`social.error.${refusal}`)} />
      <ul className="flex flex-col divide-y divide-line rounded-xl border border-line">
        {rows.map((row) => (
          <ProviderLine key={row.name} row={row} locked={onlyWayIn && row.linked !== null} />
        ))}
      </ul>
      {onlyWayIn && <p className="text-sm text-muted">{t('social.last_method_hint')}</p>}
    </Card>
  );
}

function ProviderLine({ row, locked }: { row: ProviderRow; locked: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const showGenericError = useGenericError();
  const labelOf = useSocialProviderLabel();
  const [busy, setBusy] = useState(false);
  const label = labelOf(row);

  const connect = async () => {
    setBusy(true);
    try {
      window.location.assign(await startSocialRedirect(row.name, 'link'));
    } catch {
      setBusy(false);
      showGenericError();
    }
  };
  const disconnect = async () => {
    setBusy(true);
    try {
      await unlinkSocialAccount(row.name);
      pushToast('success', t('social.unlinked_done', { provider: label }));
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 422)
        pushToast('danger', t('social.last_method_hint'));
      else showGenericError();
    } finally {
      setBusy(false);
      await queryClient.invalidateQueries(socialAccountsQuery);
    }
  };

  const status = row.linked
    ? row.linked.email
      ? t('social.linked_as', { email: row.linked.email })
      : t('social.linked_no_email')
    : t('social.not_linked');
  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-2 px-4 py-3">
      <span className="grid size-9 shrink-0 place-items-center rounded-lg bg-surface-2">
        <SocialProviderIcon kind={row.kind ?? 'oidc'} className="size-5" />
      </span>
      <div className="flex min-w-48 flex-1 flex-col">
        <span className="truncate font-medium">{label}</span>
        <span className="text-sm [overflow-wrap:anywhere] text-muted">
          {row.offered ? status : t('social.provider_removed')}
        </span>
      </div>
      {row.linked ? (
        <Button
          className="ml-auto"
          variant="secondary"
          size="sm"
          loading={busy}
          disabled={locked}
          onClick={() => void disconnect()}
        >
          {t('social.unlink')}
        </Button>
      ) : (
        <Button className="ml-auto" size="sm" loading={busy} onClick={() => void connect()}>
          {t('social.link')}
        </Button>
      )}
    </li>
  );
}

/** After a provider sent the browser back with `linked`, says so once and drops it from the address. */
function useLinkedToast() {
  const { t } = useTranslation();
  const labelOf = useSocialProviderLabel();
  const config = useConfig();
  const [params, setParams] = useSearchParams();
  const linked = params.get('linked');
  useEffect(() => {
    if (!linked) return;
    const provider = config.socialProviders.find((p) => p.name === linked);
    pushToast('success', t('social.linked_done', { provider: provider ? labelOf(provider) : linked }));
    setParams({}, { replace: true });
  }, [linked, config.socialProviders, labelOf, setParams, t]);
}

function providerRows(
  offered: Array<{ name: string; kind: SocialProviderKind; label: string | null }>,
  linked: Array<{
    provider: string;
    email: string | null;
    kind: SocialProviderKind | null;
    label: string | null;
  }>,
): ProviderRow[] {
  const rows: ProviderRow[] = offered.map((p) => {
    const account = linked.find((a) => a.provider === p.name);
    return { ...p, linked: account ? { email: account.email } : null, offered: true };
  });
  for (const account of linked) {
    if (!rows.some((r) => r.name === account.provider))
      rows.push({
        name: account.provider,
        kind: account.kind,
        label: account.label,
        linked: { email: account.email },
        offered: false,
      });
  }
  return rows;
}
