import type { AdminSettings } from '@atelier/contracts';
import { Home } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { InputField, TextareaField } from '../../../components/ui/field';
import { SwitchField } from '../../../components/ui/switch';
import { useConfig } from '../../session/session-queries';
import { SettingsForm, SettingsLoader, SettingsSection, useSettingsForm } from './settings-parts';

/** /admin/settings/index: whether visitors see the homepage, and its own title and lead. */
export function IndexTab() {
  return <SettingsLoader group="index">{(settings) => <IndexForm settings={settings} />}</SettingsLoader>;
}

function IndexForm({ settings }: { settings: AdminSettings }) {
  const { t } = useTranslation();
  const { name: appName, description: appDescription } = useConfig().app;
  const { draft, set, submitting, fieldErrors, formError, onSubmit } = useSettingsForm(
    'index',
    {
      allow_homepage: settings.allow_homepage as boolean,
      homepage_title: (settings.homepage_title as string | null) ?? '',
      homepage_description: (settings.homepage_description as string | null) ?? '',
    },
    (d) => d,
  );
  return (
    <SettingsForm onSubmit={onSubmit} submitting={submitting} formError={formError}>
      <SettingsSection
        title={t('admin_settings.index.title')}
        lead={t('admin_settings.index.lead')}
        icon={<Home className="size-5" aria-hidden />}
      >
        <SwitchField
          label={t('admin_settings.index.allow_homepage')}
          description={t('admin_settings.index.allow_homepage_hint')}
          checked={draft.allow_homepage}
          onCheckedChange={(checked) => set('allow_homepage', checked)}
        />
        <InputField
          label={t('admin_settings.index.homepage_title')}
          placeholder={t('home.welcome', { name: appName })}
          hint={t('admin_settings.index.default_hint')}
          maxLength={160}
          value={draft.homepage_title}
          onChange={(event) => set('homepage_title', event.target.value)}
          error={fieldErrors.homepage_title}
        />
        <TextareaField
          label={t('admin_settings.index.homepage_description')}
          placeholder={appDescription}
          hint={t('admin_settings.index.description_hint')}
          maxLength={600}
          className="[&_textarea]:min-h-24"
          value={draft.homepage_description}
          onChange={(event) => set('homepage_description', event.target.value)}
          error={fieldErrors.homepage_description}
        />
      </SettingsSection>
    </SettingsForm>
  );
}
