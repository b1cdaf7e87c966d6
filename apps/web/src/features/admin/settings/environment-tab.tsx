import { S3_REGIONS, type AdminSettings } from '@atelier/contracts';
import { Cloud, HardDrive, Mail, MailCheck, RadioTower, Server } from 'lucide-react';
import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { ChoiceCards } from '../../../components/ui/choice-cards';
import { InputField } from '../../../components/ui/field';
import { Suggestions } from '../../../components/ui/suggestions';
import { SwitchField } from '../../../components/ui/switch';
import { RealtimeTestCard } from './realtime-test-card';
import { SecretField, SettingsLoader, SettingsSection, useSettingsForm } from './settings-parts';

interface StoredS3 {
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey_set: boolean;
  forcePathStyle: boolean;
}

/**
 * /admin/settings/environment: storage, mail and broadcasting, each saved on its own after the server
 * proved it works (as the setup wizard does), and the realtime connection's end-to-end test.
 */
export function EnvironmentTab() {
  return (
    <div className="flex flex-col gap-6">
      <SettingsLoader group="environment">
        {(settings) => (
          <>
            <StorageForm settings={settings} />
            <MailForm settings={settings} />
            <BroadcastingForm settings={settings} />
          </>
        )}
      </SettingsLoader>
      <RealtimeTestCard />
    </div>
  );
}

/** One service's card: its fields, then "Test and save" that shows the test running. */
function TestedSection({
  title,
  lead,
  icon,
  onSubmit,
  submitting,
  formError,
  children,
}: {
  title: string;
  lead: string;
  icon: ReactNode;
  onSubmit: (event: FormEvent) => void;
  submitting: boolean;
  formError: string | null;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <form onSubmit={onSubmit} noValidate aria-busy={submitting}>
      <SettingsSection
        title={title}
        lead={lead}
        icon={icon}
        footer={
          <>
            {formError && (
              <p role="alert" className="mr-auto text-sm text-danger">
                {formError}
              </p>
            )}
            {submitting && (
              <p role="status" className="mr-auto text-sm text-muted">
                {t('admin_settings.environment.testing')}
              </p>
            )}
            <Button type="submit" loading={submitting}>
              {t('admin_settings.environment.test_and_save')}
            </Button>
          </>
        }
      >
        {children}
      </SettingsSection>
    </form>
  );
}

/** A failed test is the 422 of its setting; its message carries the driver's reason. */
function TestFailure({ message }: { message?: string }) {
  if (!message) return null;
  return (
    <p
      role="alert"
      className="rounded-xl border border-danger/30 bg-danger/8 px-4 py-3 text-sm break-words text-danger"
    >
      {message}
    </p>
  );
}

function StorageForm({ settings }: { settings: AdminSettings }) {
  const { t } = useTranslation();
  const s3 = settings.s3 as StoredS3 | null;
  const { draft, set, submitting, fieldErrors, formError, onSubmit } = useSettingsForm(
    'environment',
    {
      driver: (settings.storage_driver as 'local' | 's3' | null) ?? 'local',
      endpoint: s3?.endpoint ?? '',
      region: s3?.region ?? '',
      bucket: s3?.bucket ?? '',
      accessKeyId: s3?.accessKeyId ?? '',
      secretAccessKey: null as string | null,
      forcePathStyle: s3?.forcePathStyle ?? true,
    },
    ({ driver, endpoint, ...rest }) =>
      driver === 's3'
        ? { storage_driver: 's3', s3: { ...rest, endpoint: endpoint.trim() || undefined } }
        : { storage_driver: 'local' },
  );
  const text = (name: 'endpoint' | 'region' | 'bucket' | 'accessKeyId') => ({
    value: draft[name],
    onChange: (event: { target: { value: string } }) => set(name, event.target.value),
    error: fieldErrors[`s3.${name}`],
  });
  return (
    <TestedSection
      title={t('admin_settings.environment.storage_title')}
      lead={t('admin_settings.environment.storage_lead')}
      icon={<HardDrive className="size-5" aria-hidden />}
      onSubmit={onSubmit}
      submitting={submitting}
      formError={formError}
    >
      <ChoiceCards
        label={t('admin_settings.environment.storage_driver')}
        value={draft.driver}
        onChange={(driver) => set('driver', driver)}
        choices={[
          {
            value: 'local',
            title: t('admin_settings.environment.storage_local'),
            description: t('admin_settings.environment.storage_local_hint'),
            icon: <HardDrive className="size-4" aria-hidden />,
          },
          {
            value: 's3',
            title: t('admin_settings.environment.storage_s3'),
            description: t('admin_settings.environment.storage_s3_hint'),
            icon: <Cloud className="size-4" aria-hidden />,
          },
        ]}
      />
      {draft.driver === 's3' && (
        <div className="grid gap-4 sm:grid-cols-2">
          <InputField
            label={t('admin_settings.environment.s3_endpoint')}
            type="url"
            placeholder="https://s3.example.com"
            hint={t('admin_settings.environment.s3_endpoint_hint')}
            className="sm:col-span-2"
            {...text('endpoint')}
          />
          <InputField
            label={t('admin_settings.environment.s3_region')}
            placeholder="us-east-1"
            list="s3-regions"
            autoCapitalize="off"
            {...text('region')}
          />
          <Suggestions id="s3-regions" values={S3_REGIONS} />
          <InputField label={t('admin_settings.environment.s3_bucket')} {...text('bucket')} />
          <InputField
            label={t('admin_settings.environment.s3_key')}
            autoCapitalize="off"
            {...text('accessKeyId')}
          />
          <SecretField
            label={t('admin_settings.environment.s3_secret')}
            isSet={s3?.secretAccessKey_set ?? false}
            value={draft.secretAccessKey}
            onChange={(value) => set('secretAccessKey', value)}
            error={fieldErrors['s3.secretAccessKey']}
          />
          <div className="sm:col-span-2">
            <SwitchField
              label={t('admin_settings.environment.s3_path_style')}
              description={t('admin_settings.environment.s3_path_style_hint')}
              checked={draft.forcePathStyle}
              onCheckedChange={(checked) => set('forcePathStyle', checked)}
            />
          </div>
        </div>
      )}
      <TestFailure message={fieldErrors.s3 ?? fieldErrors.storage_driver} />
    </TestedSection>
  );
}

function MailForm({ settings }: { settings: AdminSettings }) {
  const { t } = useTranslation();
  const urlSet = settings.smtp_url_set as boolean;
  const { draft, set, submitting, fieldErrors, formError, onSubmit } = useSettingsForm(
    'environment',
    {
      driver: settings.mail_driver as 'log' | 'smtp',
      url: null as string | null,
      from: (settings.mail_from as string | null) ?? '',
    },
    ({ driver, url, from }) =>
      driver === 'smtp'
        ? { mail_driver: 'smtp', smtp_url: url === '' ? null : url, mail_from: from.trim() || null }
        : { mail_driver: 'log' },
  );
  return (
    <TestedSection
      title={t('admin_settings.environment.mail_title')}
      lead={t('admin_settings.environment.mail_lead')}
      icon={<Mail className="size-5" aria-hidden />}
      onSubmit={onSubmit}
      submitting={submitting}
      formError={formError}
    >
      <ChoiceCards
        label={t('admin_settings.environment.mail_driver')}
        value={draft.driver}
        onChange={(driver) => set('driver', driver)}
        choices={[
          {
            value: 'log',
            title: t('admin_settings.environment.mail_log'),
            description: t('admin_settings.environment.mail_log_hint'),
            icon: <Server className="size-4" aria-hidden />,
          },
          {
            value: 'smtp',
            title: t('admin_settings.environment.mail_smtp'),
            description: t('admin_settings.environment.mail_smtp_hint'),
            icon: <MailCheck className="size-4" aria-hidden />,
          },
        ]}
      />
      {draft.driver === 'smtp' && (
        <div className="grid gap-4 sm:grid-cols-2">
          <SecretField
            label={t('admin_settings.environment.smtp_url')}
            isSet={urlSet}
            value={urlSet ? draft.url : (draft.url ?? '')}
            onChange={(value) => set('url', value)}
            placeholder="smtp://user:password@mail.example.com:587"
            hint={t('admin_settings.environment.smtp_url_hint')}
          />
          <InputField
            label={t('admin_settings.environment.mail_from')}
            type="email"
            placeholder="files@example.com"
            value={draft.from}
            onChange={(event) => set('from', event.target.value)}
            error={fieldErrors.mail_from}
          />
        </div>
      )}
      <TestFailure message={fieldErrors.smtp_url ?? fieldErrors.mail_driver} />
    </TestedSection>
  );
}

function BroadcastingForm({ settings }: { settings: AdminSettings }) {
  const { t } = useTranslation();
  const { draft, set, submitting, fieldErrors, formError, onSubmit } = useSettingsForm(
    'environment',
    { driver: settings.broadcasting_driver as 'socket.io' | 'null' },
    ({ driver }) => ({ broadcasting_driver: driver }),
  );
  return (
    <TestedSection
      title={t('admin_settings.environment.broadcasting_title')}
      lead={t('admin_settings.environment.broadcasting_lead')}
      icon={<RadioTower className="size-5" aria-hidden />}
      onSubmit={onSubmit}
      submitting={submitting}
      formError={formError}
    >
      <ChoiceCards
        label={t('admin_settings.environment.broadcasting_driver')}
        value={draft.driver}
        onChange={(driver) => set('driver', driver)}
        choices={[
          {
            value: 'socket.io',
            title: 'Socket.IO',
            description: t('admin_settings.environment.broadcasting_socket_hint'),
          },
          {
            value: 'null',
            title: t('admin.realtime.driver_off'),
            description: t('admin_settings.environment.broadcasting_off_hint'),
          },
        ]}
      />
      <TestFailure message={fieldErrors.broadcasting_driver} />
    </TestedSection>
  );
}
