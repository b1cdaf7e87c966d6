import { CreateAppPasswordBody, type AppPasswordResource, type CreatedAppPassword } from '@atelier/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { askConfirm, pushToast } from '../../components/overlays/overlay-store';
import { useGenericError } from '../../components/overlays/use-generic-error';
import { Button } from '../../components/ui/button';
import { InputField } from '../../components/ui/field';
import { Modal } from '../../components/ui/modal';
import { Spinner } from '../../components/ui/spinner';
import { relativeTime } from '../../lib/relative-time';
import { useApiForm, validateWith } from '../../lib/use-api-form';
import { useSession } from '../session/session-queries';
import { CopyLinkButton } from '../sharing/copy-link';
import { AccountSection } from './account-section';
import { appPasswordsQuery, createAppPassword, revokeAppPassword } from './devices-api';
import { formatDate } from '../../lib/format-date';

/** Where WebDAV clients connect (the server serves it beside the app). */
const davAddress = () => `${window.location.origin}/dav/`;

/** The profile's app passwords for WebDAV and scripts: made with a name, shown once, listed, revoked. */
export function AppPasswordsSection() {
  const { t } = useTranslation();
  const passwords = useQuery(appPasswordsQuery).data?.data;
  const [created, setCreated] = useState<CreatedAppPassword | null>(null);

  return (
    <AccountSection title={t('app_passwords.title')} lead={t('app_passwords.lead')}>
      <CreateForm onCreated={setCreated} />
      {!passwords ? (
        <Spinner className="size-5 self-center text-muted" />
      ) : passwords.length === 0 ? (
        <p className="flex items-center gap-2 rounded-xl border border-dashed border-line px-4 py-5 text-sm text-muted">
          <KeyRound className="size-4 shrink-0" aria-hidden />
          {t('app_passwords.empty')}
        </p>
      ) : (
        <ul
          className="flex flex-col divide-y divide-line rounded-xl border border-line"
          aria-label={t('app_passwords.title')}
        >
          {passwords.map((password) => (
            <AppPasswordLine key={password.id} password={password} />
          ))}
        </ul>
      )}
      <p className="text-sm text-muted">
        {t('app_passwords.sync_clients_hint')}{' '}
        <Link to="/user/settings/sync-clients" className="font-medium text-accent hover:underline">
          {t('app_passwords.sync_clients_link')}
        </Link>
      </p>
      {created && <CreatedDialog created={created} onClose={() => setCreated(null)} />}
    </AccountSection>
  );
}

function CreateForm({ onCreated }: { onCreated: (created: CreatedAppPassword) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const form = useApiForm(
    () => createAppPassword(validateWith(CreateAppPasswordBody, { name }).name),
    async (created) => {
      setName('');
      onCreated(created);
      await queryClient.invalidateQueries(appPasswordsQuery);
    },
  );

  return (
    <form className="flex flex-col gap-3 sm:flex-row sm:items-start" onSubmit={form.onSubmit} noValidate>
      <InputField
        label={t('app_passwords.name')}
        placeholder={t('app_passwords.name_placeholder')}
        className="flex-1"
        value={name}
        maxLength={200}
        onChange={(event) => setName(event.target.value)}
        error={form.fieldErrors.name ?? form.formError ?? undefined}
      />
      <Button type="submit" loading={form.submitting} className="sm:mt-[1.625rem]">
        {t('app_passwords.create')}
      </Button>
    </form>
  );
}

function AppPasswordLine({ password }: { password: AppPasswordResource }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const showGenericError = useGenericError();
  const [revoking, setRevoking] = useState(false);
  const { name, created_at, last_used_at } = password.attributes;
  const createdOn = formatDate(created_at, i18n.language);

  const revoke = async () => {
    const confirmed = await askConfirm({
      title: t('app_passwords.revoke_title', { name }),
      message: t('app_passwords.revoke_message'),
      confirmLabel: t('app_passwords.revoke'),
      danger: true,
    });
    if (!confirmed) return;
    setRevoking(true);
    try {
      await revokeAppPassword(password.id);
      pushToast('success', t('app_passwords.revoked', { name }));
    } catch {
      showGenericError();
    } finally {
      setRevoking(false);
      await queryClient.invalidateQueries(appPasswordsQuery);
    }
  };

  return (
    <li className="flex items-center gap-3 px-4 py-3">
      <span className="grid size-10 shrink-0 place-items-center rounded-lg bg-surface-2 text-muted">
        <KeyRound className="size-5" aria-hidden />
      </span>
      <div className="flex min-w-0 flex-1 flex-col gap-0.5">
        <span className="truncate font-medium">{name}</span>
        <span className="text-sm text-muted">
          {[
            t('app_passwords.created_on', { date: createdOn }),
            last_used_at
              ? t('app_passwords.last_used', { when: relativeTime(last_used_at, i18n.language) })
              : t('app_passwords.never_used'),
          ].join(' · ')}
        </span>
      </div>
      <Button
        variant="secondary"
        size="sm"
        loading={revoking}
        aria-label={t('app_passwords.revoke_named', { name })}
        onClick={() => void revoke()}
      >
        {t('app_passwords.revoke')}
      </Button>
    </li>
  );
}

/** The new password, the one time it is shown, with what a WebDAV client needs beside it. */
function CreatedDialog({ created, onClose }: { created: CreatedAppPassword; onClose: () => void }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const passwordId = useId();
  const address = davAddress();

  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('app_passwords.created_title', { name: created.name })}
      description={t('app_passwords.created_lead')}
    >
      <div className="mt-5 flex flex-col gap-4">
        <div className="flex flex-col gap-1.5">
          <label htmlFor={passwordId} className="text-sm font-medium text-ink">
            {t('app_passwords.password')}
          </label>
          <div className="flex flex-col gap-2 sm:flex-row">
            <input
              id={passwordId}
              readOnly
              value={created.password}
              onFocus={(event) => event.target.select()}
              className="h-11 min-w-0 rounded-xl border border-line bg-surface-2 px-3.5 font-mono sm:flex-1 text-[15px] tracking-wide text-ink focus:border-accent focus:ring-3 focus:ring-accent/15 focus:outline-none"
            />
            <CopyLinkButton link={created.password} label={t('app_passwords.copy')} className="h-11" />
          </div>
        </div>
        <dl className="grid gap-x-4 gap-y-1.5 rounded-xl bg-surface-2 px-4 py-3 text-sm sm:grid-cols-[auto_1fr]">
          <dt className="text-muted">{t('app_passwords.webdav_address')}</dt>
          <dd className="min-w-0 font-mono text-[13px] break-all">{address}</dd>
          <dt className="text-muted">{t('app_passwords.user_name')}</dt>
          <dd className="min-w-0 font-mono text-[13px] break-all">{user?.attributes.email}</dd>
        </dl>
        <p className="text-sm leading-relaxed text-muted">{t('app_passwords.webdav_hint')}</p>
        <Button className="self-end" onClick={onClose}>
          {t('app_passwords.done')}
        </Button>
      </div>
    </Modal>
  );
}
