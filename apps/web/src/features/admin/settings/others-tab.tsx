import { TEAM_MEMBERS_UNLIMITED, type AdminSettings } from '@atelier/contracts';
import { Construction, FolderOpen, HardDrive, UserPlus } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { InputField, TextareaField } from '../../../components/ui/field';
import { LimitField } from '../../../components/ui/limit-field';
import { SwitchField } from '../../../components/ui/switch';
import { FileManagerChoice } from './file-manager-choice';
import {
  fromMegabytes,
  numberOrText,
  SettingsForm,
  SettingsLoader,
  SettingsSection,
  toMegabytes,
  useSettingsForm,
} from './settings-parts';

/**
 * /admin/settings/others: registration, what new accounts get, storage and upload rules, maintenance
 * and the default language.
 */
export function OthersTab() {
  return <SettingsLoader group="others">{(settings) => <OthersForm settings={settings} />}</SettingsLoader>;
}

function OthersForm({ settings }: { settings: AdminSettings }) {
  const { t } = useTranslation();
  const flag = (name: string) => settings[name] as boolean;
  const { draft, set, submitting, fieldErrors, formError, onSubmit } = useSettingsForm(
    'others',
    {
      registration: flag('registration'),
      email_verification: flag('email_verification'),
      storage_limitation: flag('storage_limitation'),
      maintenance: flag('maintenance'),
      file_manager_for_all: flag('file_manager_for_all'),
      file_manager_cutoff: settings.file_manager_cutoff as string,
      default_storage_gb: String(settings.default_storage_gb),
      default_team_members: String(settings.default_team_members),
      upload_limit_mb: toMegabytes(settings.upload_limit as number),
      chunk_size_mb: toMegabytes(settings.chunk_size as number),
      versions_keep_all_days: String(settings.versions_keep_all_days),
      versions_keep_daily_days: String(settings.versions_keep_daily_days),
      mimetypes_blacklist: (settings.mimetypes_blacklist as string[]).join('\n'),
      locale: settings.locale as string,
    },
    ({ upload_limit_mb, chunk_size_mb, ...d }) => ({
      ...d,
      default_storage_gb: numberOrText(d.default_storage_gb),
      default_team_members: numberOrText(d.default_team_members),
      upload_limit: upload_limit_mb.trim() === '' ? 0 : fromMegabytes(upload_limit_mb),
      chunk_size: fromMegabytes(chunk_size_mb),
      versions_keep_all_days: numberOrText(d.versions_keep_all_days),
      versions_keep_daily_days: numberOrText(d.versions_keep_daily_days),
      mimetypes_blacklist: d.mimetypes_blacklist
        .split(/[\n,]/)
        .map((type) => type.trim())
        .filter(Boolean),
    }),
  );
  const text = (name: keyof typeof draft, error = name as string) => ({
    value: draft[name] as string,
    onChange: (event: { target: { value: string } }) => set(name, event.target.value),
    error: fieldErrors[error],
  });
  const listError = Object.entries(fieldErrors).find(([field]) =>
    field.startsWith('mimetypes_blacklist'),
  )?.[1];

  return (
    <SettingsForm onSubmit={onSubmit} submitting={submitting} formError={formError}>
      <SettingsSection
        title={t('admin_settings.others.accounts_title')}
        lead={t('admin_settings.others.accounts_lead')}
        icon={<UserPlus className="size-5" aria-hidden />}
      >
        <SwitchField
          label={t('admin_settings.others.registration')}
          description={t('admin_settings.others.registration_hint')}
          checked={draft.registration}
          onCheckedChange={(checked) => set('registration', checked)}
        />
        <SwitchField
          label={t('admin_settings.others.email_verification')}
          description={t('admin_settings.others.email_verification_hint')}
          checked={draft.email_verification}
          onCheckedChange={(checked) => set('email_verification', checked)}
        />
        <div className="grid gap-5 sm:grid-cols-2">
          <LimitField
            label={t('admin_settings.others.default_team_members')}
            unlimited={TEAM_MEMBERS_UNLIMITED}
            fallback="5"
            step={1}
            hint={t('admin_settings.others.default_team_members_hint')}
            {...text('default_team_members')}
          />
          <InputField
            label={t('admin_settings.others.locale')}
            hint={t('admin_settings.others.locale_hint')}
            autoCapitalize="off"
            {...text('locale')}
          />
        </div>
      </SettingsSection>

      <SettingsSection
        title={t('admin_settings.others.file_manager_title')}
        lead={t('admin_settings.others.file_manager_lead')}
        icon={<FolderOpen className="size-5" aria-hidden />}
      >
        <FileManagerChoice
          cutoff={draft.file_manager_cutoff}
          forAll={draft.file_manager_for_all}
          onCutoffChange={(cutoff) => set('file_manager_cutoff', cutoff)}
          onForAllChange={(forAll) => set('file_manager_for_all', forAll)}
          cutoffError={fieldErrors.file_manager_cutoff}
        />
      </SettingsSection>

      <SettingsSection
        title={t('admin_settings.others.storage_title')}
        lead={t('admin_settings.others.storage_lead')}
        icon={<HardDrive className="size-5" aria-hidden />}
      >
        <SwitchField
          label={t('admin_settings.others.storage_limitation')}
          description={t('admin_settings.others.storage_limitation_hint')}
          checked={draft.storage_limitation}
          onCheckedChange={(checked) => set('storage_limitation', checked)}
        />
        <div className="grid gap-5 sm:grid-cols-3">
          <InputField
            label={t('admin_settings.others.default_storage_gb')}
            type="number"
            min={0}
            step="any"
            disabled={!draft.storage_limitation}
            {...text('default_storage_gb')}
          />
          <LimitField
            label={t('admin_settings.others.upload_limit')}
            unlimited={0}
            fallback="1024"
            step="any"
            hint={t('admin_settings.others.upload_limit_hint')}
            {...text('upload_limit_mb', 'upload_limit')}
          />
          <InputField
            label={t('admin_settings.others.chunk_size')}
            type="number"
            min={1}
            max={100}
            step="any"
            hint={t('admin_settings.others.chunk_size_hint')}
            {...text('chunk_size_mb', 'chunk_size')}
          />
        </div>
        <TextareaField
          label={t('admin_settings.others.mimetypes_blacklist')}
          placeholder={'application/x-msdownload\nvideo/*'}
          className="[&_textarea]:min-h-28 [&_textarea]:font-mono"
          value={draft.mimetypes_blacklist}
          onChange={(event) => set('mimetypes_blacklist', event.target.value)}
          error={listError}
        />
        <p className="-mt-3 text-xs text-muted">{t('admin_settings.others.mimetypes_hint')}</p>
        <div className="grid gap-5 sm:grid-cols-2">
          <InputField
            label={t('admin_settings.others.versions_keep_all_days')}
            type="number"
            min={0}
            step={1}
            hint={t('admin_settings.others.versions_keep_all_days_hint')}
            {...text('versions_keep_all_days')}
          />
          <InputField
            label={t('admin_settings.others.versions_keep_daily_days')}
            type="number"
            min={0}
            step={1}
            hint={t('admin_settings.others.versions_keep_daily_days_hint')}
            {...text('versions_keep_daily_days')}
          />
        </div>
      </SettingsSection>

      <SettingsSection
        title={t('admin_settings.others.maintenance_title')}
        lead={t('admin_settings.others.maintenance_lead')}
        icon={<Construction className="size-5" aria-hidden />}
      >
        <SwitchField
          label={t('admin_settings.others.maintenance')}
          description={t('admin_settings.others.maintenance_hint')}
          checked={draft.maintenance}
          onCheckedChange={(checked) => set('maintenance', checked)}
        />
      </SettingsSection>
    </SettingsForm>
  );
}
