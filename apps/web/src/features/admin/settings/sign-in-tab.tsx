import {
  SOCIAL_PROVIDER_KINDS,
  type AdminSettings,
  type SocialProviderAdminView,
  type SocialProviderKind,
} from '@atelier/contracts';
import { Plus, Trash2, UserRoundCheck } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { InputField, SelectField } from '../../../components/ui/field';
import { SwitchField } from '../../../components/ui/switch';
import {
  SecretField,
  SettingsForm,
  SettingsLoader,
  SettingsSection,
  useSettingsForm,
} from './settings-parts';

/** One provider as the form edits it: the secret is null until the admin types a new one. */
type ProviderDraft = Omit<SocialProviderAdminView, 'client_secret'> & { client_secret: string | null };

const KIND_NAMES: Record<SocialProviderKind, string> = {
  oidc: 'OpenID Connect',
  google: 'Google',
  github: 'GitHub',
  facebook: 'Facebook',
};

/** /admin/settings/sign-in: the social sign-in providers (their shape is the social sign-in's setting). */
export function SignInTab() {
  return <SettingsLoader group="sign-in">{(settings) => <SignInForm settings={settings} />}</SettingsLoader>;
}

function SignInForm({ settings }: { settings: AdminSettings }) {
  const { t } = useTranslation();
  const { draft, setDraft, submitting, fieldErrors, formError, onSubmit } = useSettingsForm(
    'sign-in',
    { providers: settings.social_providers as ProviderDraft[] },
    (d) => ({
      social_providers: d.providers.map(({ client_secret_set: _set, ...provider }) => ({
        ...provider,
        label: provider.label?.trim() || undefined,
        issuer: provider.issuer?.trim() || undefined,
      })),
    }),
  );
  const providers = draft.providers;
  const update = (index: number, change: Partial<ProviderDraft>) =>
    setDraft({ providers: providers.map((p, i) => (i === index ? { ...p, ...change } : p)) });
  const add = () =>
    setDraft({
      providers: [
        ...providers,
        { name: '', kind: 'oidc', client_id: '', client_secret: '', client_secret_set: false, enabled: true },
      ],
    });
  const error = (index: number, field: string) => fieldErrors[`social_providers.${index}.${field}`];

  return (
    <SettingsForm onSubmit={onSubmit} submitting={submitting} formError={formError}>
      <SettingsSection
        title={t('admin_settings.sign_in.title')}
        lead={t('admin_settings.sign_in.lead')}
        icon={<UserRoundCheck className="size-5" aria-hidden />}
        footer={
          <Button type="button" variant="secondary" onClick={add}>
            <Plus className="size-4" aria-hidden />
            {t('admin_settings.sign_in.add')}
          </Button>
        }
      >
        {providers.length === 0 && (
          <p className="rounded-xl border border-dashed border-line px-4 py-6 text-center text-sm text-muted">
            {t('admin_settings.sign_in.empty')}
          </p>
        )}
        {fieldErrors.social_providers && (
          <p role="alert" className="text-sm text-danger">
            {fieldErrors.social_providers}
          </p>
        )}
        <ol className="flex flex-col gap-4">
          {providers.map((provider, index) => (
            <li key={index} className="flex flex-col gap-4 rounded-xl border border-line bg-surface-2/50 p-4">
              <div className="flex items-center justify-between gap-3">
                <h3 className="truncate font-semibold">
                  {provider.label || provider.name || t('admin_settings.sign_in.new_provider')}
                </h3>
                <Button
                  type="button"
                  size="sm"
                  variant="ghost"
                  onClick={() => setDraft({ providers: providers.filter((_, i) => i !== index) })}
                >
                  <Trash2 className="size-4" aria-hidden />
                  {t('admin_settings.sign_in.remove')}
                </Button>
              </div>
              <div className="grid gap-4 sm:grid-cols-2">
                <SelectField
                  label={t('admin_settings.sign_in.kind')}
                  value={provider.kind}
                  options={SOCIAL_PROVIDER_KINDS.map((kind) => ({ value: kind, label: KIND_NAMES[kind] }))}
                  onChange={(event) => update(index, { kind: event.target.value as SocialProviderKind })}
                  error={error(index, 'kind')}
                />
                <InputField
                  label={t('admin_settings.sign_in.name')}
                  hint={t('admin_settings.sign_in.name_hint')}
                  autoCapitalize="off"
                  value={provider.name}
                  onChange={(event) => update(index, { name: event.target.value.toLowerCase() })}
                  error={error(index, 'name')}
                />
                <InputField
                  label={t('admin_settings.sign_in.label')}
                  hint={t('admin_settings.optional')}
                  value={provider.label ?? ''}
                  onChange={(event) => update(index, { label: event.target.value })}
                  error={error(index, 'label')}
                />
                {(provider.kind === 'oidc' || provider.kind === 'google') && (
                  <InputField
                    label={t('admin_settings.sign_in.issuer')}
                    type="url"
                    placeholder="https://"
                    hint={provider.kind === 'google' ? t('admin_settings.optional') : undefined}
                    value={provider.issuer ?? ''}
                    onChange={(event) => update(index, { issuer: event.target.value })}
                    error={error(index, 'issuer')}
                  />
                )}
                <InputField
                  label={t('admin_settings.sign_in.client_id')}
                  autoCapitalize="off"
                  value={provider.client_id}
                  onChange={(event) => update(index, { client_id: event.target.value })}
                  error={error(index, 'client_id')}
                />
                <SecretField
                  label={t('admin_settings.sign_in.client_secret')}
                  isSet={provider.client_secret_set}
                  value={provider.client_secret}
                  onChange={(client_secret) => update(index, { client_secret })}
                  error={error(index, 'client_secret')}
                />
              </div>
              {provider.name && (
                <p className="text-xs break-all text-muted">
                  {t('admin_settings.sign_in.callback')}{' '}
                  <code className="font-mono text-ink">{`${window.location.origin}/socialite/${provider.name}/callback`}</code>
                </p>
              )}
              <SwitchField
                label={t('admin_settings.sign_in.enabled')}
                description={t('admin_settings.sign_in.enabled_hint')}
                checked={provider.enabled}
                onCheckedChange={(enabled) => update(index, { enabled })}
              />
            </li>
          ))}
        </ol>
      </SettingsSection>
    </SettingsForm>
  );
}
