import {
  ConfirmTwoFactorBody,
  TwoFactorPasswordBody,
  type TwoFactorSetup,
  type TwoFactorStatus,
} from '@atelier/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Download, ShieldCheck, ShieldOff } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pushToast } from '../../components/overlays/overlay-store';
import { Button } from '../../components/ui/button';
import { InputField } from '../../components/ui/field';
import { Modal } from '../../components/ui/modal';
import { Spinner } from '../../components/ui/spinner';
import { cn } from '../../lib/cn';
import { useApiForm, validateWith } from '../../lib/use-api-form';
import { userQueryKey, useSession } from '../session/session-queries';
import { CopyLinkButton } from '../sharing/copy-link';
import {
  beginTwoFactor,
  confirmTwoFactor,
  disableTwoFactor,
  regenerateRecoveryCodes,
  twoFactorQuery,
} from './two-factor-api';
import { formatDate } from '../../lib/format-date';

/** Recovery codes this few or fewer are worth replacing before they run out. */
const FEW_CODES_LEFT = 3;

/**
 * The profile's two-factor authentication (the card's content): turned on with the password (QR
 * code and secret, then a first code), recovery codes shown once, replaced, counted; turned off
 * with the password.
 */
export function TwoFactorSection() {
  const status = useQuery(twoFactorQuery).data?.data;
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);

  return (
    <>
      {!status ? (
        <Spinner className="size-5 self-center text-muted" />
      ) : status.confirmed_at ? (
        <EnabledPanel status={status} onCodes={setCodes} />
      ) : setup ? (
        <SetupPanel
          setup={setup}
          onCancel={() => setSetup(null)}
          onConfirmed={(recoveryCodes) => {
            setSetup(null);
            setCodes(recoveryCodes);
          }}
        />
      ) : (
        <EnableForm onSetup={setSetup} />
      )}
      {codes && <RecoveryCodesDialog codes={codes} onClose={() => setCodes(null)} />}
    </>
  );
}

function StateLine({ on, children }: { on: boolean; children: string }) {
  const Icon = on ? ShieldCheck : ShieldOff;
  return (
    <p className="flex items-center gap-3 rounded-xl bg-surface-2 px-4 py-3 text-sm">
      <span
        className={cn(
          'grid size-9 shrink-0 place-items-center rounded-lg',
          on ? 'bg-success-soft text-success' : 'bg-surface text-muted',
        )}
      >
        <Icon className="size-5" aria-hidden />
      </span>
      <span className="min-w-0">{children}</span>
    </p>
  );
}

function EnableForm({ onSetup }: { onSetup: (setup: TwoFactorSetup) => void }) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const form = useApiForm(
    () => beginTwoFactor(validateWith(TwoFactorPasswordBody, { password }).password),
    (setup) => {
      setPassword('');
      onSetup(setup);
    },
  );

  return (
    <div className="flex flex-col gap-5">
      <StateLine on={false}>{t('two_factor.state_off')}</StateLine>
      <form className="flex flex-col gap-3 sm:flex-row sm:items-start" onSubmit={form.onSubmit} noValidate>
        <InputField
          label={t('two_factor.password')}
          type="password"
          autoComplete="current-password"
          className="flex-1"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={form.fieldErrors.password ?? form.formError ?? undefined}
        />
        <Button type="submit" loading={form.submitting} className="sm:mt-[1.625rem]">
          {t('two_factor.enable')}
        </Button>
      </form>
    </div>
  );
}

/** The secret in groups of four, easier to type into an app by hand. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

function SetupPanel({
  setup,
  onCancel,
  onConfirmed,
}: {
  setup: TwoFactorSetup;
  onCancel: () => void;
  onConfirmed: (codes: string[]) => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const secretId = useId();
  const [code, setCode] = useState('');
  const form = useApiForm(
    () => confirmTwoFactor(validateWith(ConfirmTwoFactorBody, { code }).code),
    async ({ recovery_codes }) => {
      onConfirmed(recovery_codes);
      pushToast('success', t('two_factor.enabled'));
      await queryClient.invalidateQueries({ queryKey: userQueryKey });
    },
  );

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-5 sm:flex-row sm:items-start">
        <img
          src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qr_svg)}`}
          alt={t('two_factor.qr_alt')}
          className="size-44 shrink-0 self-center rounded-xl border border-line bg-white p-2 sm:self-start"
        />
        <div className="flex min-w-0 flex-1 flex-col gap-4">
          <ol className="flex list-decimal flex-col gap-1.5 pl-5 text-sm leading-relaxed text-muted">
            <li>{t('two_factor.step_scan')}</li>
            <li>{t('two_factor.step_code')}</li>
          </ol>
          <div className="flex flex-col gap-1.5">
            <label htmlFor={secretId} className="text-sm font-medium text-ink">
              {t('two_factor.secret')}
            </label>
            <div className="flex flex-col gap-2 sm:flex-row">
              <input
                id={secretId}
                readOnly
                value={grouped(setup.secret)}
                data-secret={setup.secret}
                onFocus={(event) => event.target.select()}
                className="h-10 min-w-0 rounded-xl border border-line bg-surface-2 px-3 font-mono sm:flex-1 text-[13px] tracking-wide text-ink focus:border-accent focus:ring-3 focus:ring-accent/15 focus:outline-none"
              />
              <CopyLinkButton link={setup.secret} variant="secondary" label={t('two_factor.copy')} />
            </div>
          </div>
        </div>
      </div>
      <form
        className="flex flex-col gap-3 border-t border-line pt-6 sm:flex-row sm:items-start"
        onSubmit={form.onSubmit}
        noValidate
      >
        <InputField
          label={t('two_factor.code')}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={7}
          className="flex-1"
          value={code}
          onChange={(event) => setCode(event.target.value)}
          error={form.fieldErrors.code ?? form.formError ?? undefined}
        />
        <div className="flex gap-2 sm:mt-[1.625rem]">
          <Button type="submit" loading={form.submitting}>
            {t('two_factor.confirm')}
          </Button>
          <Button type="button" variant="ghost" onClick={onCancel}>
            {t('two_factor.cancel')}
          </Button>
        </div>
      </form>
    </div>
  );
}

function EnabledPanel({
  status,
  onCodes,
}: {
  status: TwoFactorStatus['data'];
  onCodes: (codes: string[]) => void;
}) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [password, setPassword] = useState('');
  const checkedPassword = () => validateWith(TwoFactorPasswordBody, { password }).password;
  const refresh = () => queryClient.invalidateQueries({ queryKey: userQueryKey });

  const regenerate = useApiForm(
    () => regenerateRecoveryCodes(checkedPassword()),
    async ({ recovery_codes }) => {
      setPassword('');
      onCodes(recovery_codes);
      await refresh();
    },
  );
  const disable = useApiForm(
    () => disableTwoFactor(checkedPassword()),
    async () => {
      setPassword('');
      pushToast('success', t('two_factor.disabled'));
      await refresh();
    },
  );
  const error =
    regenerate.fieldErrors.password ??
    regenerate.formError ??
    disable.fieldErrors.password ??
    disable.formError ??
    undefined;
  const since = formatDate(status.confirmed_at!, i18n.language);
  const fewLeft = status.recovery_codes_left <= FEW_CODES_LEFT;

  return (
    <div className="flex flex-col gap-5">
      <StateLine on>{t('two_factor.state_on', { date: since })}</StateLine>
      <p className={cn('text-sm', fewLeft ? 'font-medium text-danger' : 'text-muted')}>
        {t('two_factor.codes_left', {
          left: status.recovery_codes_left,
          total: status.recovery_codes_total,
        })}
        {fewLeft && ` ${t('two_factor.codes_running_out')}`}
      </p>
      <form
        className="flex flex-col gap-3 border-t border-line pt-6"
        onSubmit={(event) => event.preventDefault()}
        noValidate
      >
        <InputField
          label={t('two_factor.password')}
          hint={t('two_factor.password_hint')}
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={error}
        />
        <div className="flex flex-wrap gap-2">
          <Button
            type="button"
            variant="secondary"
            loading={regenerate.submitting}
            onClick={() => void regenerate.onSubmit()}
          >
            {t('two_factor.regenerate')}
          </Button>
          <Button
            type="button"
            variant="danger"
            loading={disable.submitting}
            onClick={() => void disable.onSubmit()}
          >
            {t('two_factor.disable')}
          </Button>
        </div>
      </form>
    </div>
  );
}

/** The recovery codes, the one time they are shown: copy them or keep them as a text file. */
function RecoveryCodesDialog({ codes, onClose }: { codes: string[]; onClose: () => void }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const text = `${codes.join('\n')}\n`;

  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = t('two_factor.codes_file', { email: user?.attributes.email ?? '' });
    link.click();
    URL.revokeObjectURL(url);
  };

  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('two_factor.codes_title')}
      description={t('two_factor.codes_lead')}
      className="max-w-lg"
    >
      <div className="mt-5 flex flex-col gap-5">
        <ol
          aria-label={t('two_factor.codes_title')}
          className="grid grid-cols-1 gap-x-6 gap-y-1.5 rounded-xl bg-surface-2 px-5 py-4 font-mono text-[15px] tracking-wide min-[400px]:grid-cols-2"
        >
          {codes.map((code) => (
            <li key={code} className="select-all">
              {code}
            </li>
          ))}
        </ol>
        <div className="flex flex-wrap items-center gap-2">
          <Button type="button" variant="secondary" onClick={download}>
            <Download className="size-4" aria-hidden />
            {t('two_factor.download')}
          </Button>
          <CopyLinkButton link={text} variant="secondary" label={t('two_factor.copy_codes')} />
          <Button type="button" className="ml-auto" onClick={onClose}>
            {t('two_factor.codes_saved')}
          </Button>
        </div>
      </div>
    </Modal>
  );
}
