import {
  AVATAR_TYPES,
  SETTINGS_IMAGE_MAX_BYTES,
  type AdminSettings,
  type SettingsImageName,
} from '@atelier/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { ImageIcon, ImageUp, Palette, Trash2 } from 'lucide-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pushToast } from '../../../components/overlays/overlay-store';
import { useGenericError } from '../../../components/overlays/use-generic-error';
import { Button } from '../../../components/ui/button';
import { InputField, TextareaField } from '../../../components/ui/field';
import { ApiError } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { useConfig } from '../../session/session-queries';
import { AccentSection } from './accent-section';
import { uploadSettingsImage, useSaveSettings } from './settings-api';
import { SettingsForm, SettingsLoader, SettingsSection, useSettingsForm } from './settings-parts';

const MEGABYTES = SETTINGS_IMAGE_MAX_BYTES / 1024 / 1024;

/** How each image is previewed: the frame's shape matches where the image will show. */
const IMAGES: Array<{
  name: SettingsImageName;
  configKey: 'logo' | 'logo_dark' | 'logo_horizontal' | 'logo_horizontal_dark' | 'favicon' | 'og_image';
  frame: string;
  /** The theme a logo is made for: shown on that theme's paper, whichever theme the admin works in. */
  theme?: 'light' | 'dark';
}> = [
  { name: 'app_logo', configKey: 'logo', frame: 'size-20', theme: 'light' },
  { name: 'app_logo_dark', configKey: 'logo_dark', frame: 'size-20', theme: 'dark' },
  { name: 'app_logo_horizontal', configKey: 'logo_horizontal', frame: 'h-20 w-48', theme: 'light' },
  {
    name: 'app_logo_horizontal_dark',
    configKey: 'logo_horizontal_dark',
    frame: 'h-20 w-48',
    theme: 'dark',
  },
  { name: 'app_favicon', configKey: 'favicon', frame: 'size-20' },
  { name: 'app_og_image', configKey: 'og_image', frame: 'h-20 w-[152px]' },
];

/** /admin/settings/appearance: the instance's name, texts, contact addresses, accent colour and images. */
export function AppearanceTab() {
  return (
    <div className="flex flex-col gap-6">
      <SettingsLoader group="appearance">
        {(settings) => <AppearanceForm settings={settings} />}
      </SettingsLoader>
      <ImagesSection />
    </div>
  );
}

function AppearanceForm({ settings }: { settings: AdminSettings }) {
  const { t } = useTranslation();
  const text = (name: string) => (settings[name] as string | null) ?? '';
  const { draft, set, submitting, fieldErrors, formError, onSubmit } = useSettingsForm(
    'appearance',
    {
      app_title: text('app_title'),
      app_description: text('app_description'),
      contact_email: text('contact_email'),
      support_email: text('support_email'),
      user_guide_url: text('user_guide_url'),
      app_accent_color: text('app_accent_color'),
    },
    (d) => ({
      ...d,
      support_email: d.support_email.trim() || null,
      user_guide_url: d.user_guide_url.trim() || null,
      app_accent_color: d.app_accent_color.trim() || null,
    }),
  );
  const bind = (name: keyof typeof draft) => ({
    value: draft[name],
    onChange: (event: { target: { value: string } }) => set(name, event.target.value),
    error: fieldErrors[name],
  });
  return (
    <SettingsForm onSubmit={onSubmit} submitting={submitting} formError={formError}>
      <SettingsSection
        title={t('admin_settings.appearance.identity_title')}
        lead={t('admin_settings.appearance.identity_lead')}
        icon={<Palette className="size-5" aria-hidden />}
      >
        <InputField
          label={t('admin_settings.appearance.app_title')}
          maxLength={120}
          required
          {...bind('app_title')}
        />
        <TextareaField
          label={t('admin_settings.appearance.app_description')}
          maxLength={500}
          className="[&_textarea]:min-h-24"
          {...bind('app_description')}
        />
        <div className="grid gap-5 sm:grid-cols-2">
          <InputField
            label={t('admin_settings.appearance.contact_email')}
            type="email"
            {...bind('contact_email')}
          />
          <InputField
            label={t('admin_settings.appearance.support_email')}
            type="email"
            hint={t('admin_settings.optional')}
            {...bind('support_email')}
          />
        </div>
        <InputField
          label={t('admin_settings.appearance.user_guide_url')}
          type="url"
          placeholder="https://"
          hint={t('admin_settings.appearance.user_guide_hint')}
          {...bind('user_guide_url')}
        />
      </SettingsSection>
      <AccentSection
        name={draft.app_title.trim()}
        value={draft.app_accent_color}
        onChange={(value) => set('app_accent_color', value)}
        error={fieldErrors.app_accent_color}
      />
    </SettingsForm>
  );
}

function ImagesSection() {
  const { t } = useTranslation();
  return (
    <SettingsSection
      title={t('admin_settings.appearance.images_title')}
      lead={t('admin_settings.appearance.images_lead', { megabytes: MEGABYTES })}
      icon={<ImageUp className="size-5" aria-hidden />}
    >
      <ul className="grid gap-4 sm:grid-cols-2">
        {IMAGES.map((image) => (
          <li key={image.name}>
            <ImageUploader {...image} />
          </li>
        ))}
      </ul>
    </SettingsSection>
  );
}

/** Picks an image, checks its type and size before sending, previews what the server made of it. */
function ImageUploader({ name, configKey, frame, theme }: (typeof IMAGES)[number]) {
  const { t } = useTranslation();
  const url = useConfig().app[configKey];
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const save = useSaveSettings('appearance');
  const showGenericError = useGenericError();

  const run = async (work: () => Promise<unknown>, done: string) => {
    setBusy(true);
    setError(null);
    try {
      await work();
      await queryClient.invalidateQueries({ queryKey: ['config'] });
      pushToast('success', done);
    } catch (failure) {
      if (failure instanceof ApiError && failure.status >= 400 && failure.status < 500)
        setError(
          t(failure.fieldError('image') ?? failure.fieldError('name') ?? failure.message, {
            megabytes: MEGABYTES,
          }),
        );
      else showGenericError();
    } finally {
      setBusy(false);
    }
  };

  const pick = (file: File | undefined) => {
    if (input.current) input.current.value = '';
    if (!file) return;
    if (!(AVATAR_TYPES as readonly string[]).includes(file.type))
      return setError(t('validation.settings_image_type'));
    if (file.size > SETTINGS_IMAGE_MAX_BYTES)
      return setError(t('validation.settings_image_too_large', { megabytes: MEGABYTES }));
    void run(() => uploadSettingsImage(name, file), t('admin_settings.appearance.image_saved'));
  };

  const label = t(`admin_settings.appearance.${name}`);
  return (
    <div
      className="flex h-full flex-col gap-3 rounded-xl border border-line bg-surface p-4"
      data-testid={`image-${name}`}
    >
      <div className="flex flex-col gap-0.5">
        <span className="text-sm font-medium">{label}</span>
        <span className="text-xs text-muted">{t(`admin_settings.appearance.${name}_hint`)}</span>
      </div>
      <div
        className={cn(
          'grid place-items-center overflow-hidden rounded-xl border border-dashed border-line bg-[repeating-conic-gradient(var(--surface-2)_0_25%,transparent_0_50%)] bg-[length:16px_16px]',
          theme && `${theme} bg-paper`,
          frame,
        )}
      >
        {url ? (
          <img
            src={url}
            alt={t('admin_settings.appearance.preview', { name: label })}
            className="max-h-full max-w-full object-contain"
          />
        ) : (
          <ImageIcon className="size-7 text-muted/60" aria-hidden />
        )}
      </div>
      {error && (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      )}
      <div className="mt-auto flex flex-wrap gap-2">
        <input
          ref={input}
          type="file"
          accept={AVATAR_TYPES.join(',')}
          className="sr-only"
          aria-label={label}
          onChange={(event) => pick(event.target.files?.[0])}
        />
        <Button
          type="button"
          size="sm"
          variant="secondary"
          loading={busy}
          onClick={() => input.current?.click()}
        >
          <ImageUp className="size-4" aria-hidden />
          {url ? t('admin_settings.appearance.replace') : t('admin_settings.appearance.upload')}
        </Button>
        {url && (
          <Button
            type="button"
            size="sm"
            variant="ghost"
            disabled={busy}
            onClick={() =>
              void run(() => save({ [name]: null }), t('admin_settings.appearance.image_removed'))
            }
          >
            <Trash2 className="size-4" aria-hidden />
            {t('admin_settings.appearance.remove')}
          </Button>
        )}
      </div>
    </div>
  );
}
