import { AVATAR_MAX_BYTES, AVATAR_TYPES, ChangePasswordBody, type ThemeMode } from '@atelier/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { ImageUp, Monitor, Moon, Sun, Trash2 } from 'lucide-react';
import { useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '../../components/avatar';
import { pushToast } from '../../components/overlays/overlay-store';
import { useGenericError } from '../../components/overlays/use-generic-error';
import { Button } from '../../components/ui/button';
import { ChoiceCards } from '../../components/ui/choice-cards';
import { InputField } from '../../components/ui/field';
import { ApiError } from '../../lib/api-client';
import { bindField, useApiForm, validateWith } from '../../lib/use-api-form';
import { userQueryKey, useSession, type User } from '../session/session-queries';
import { useUserSettings } from '../session/use-user-settings';
import { EmojiChoice } from '../theme/emoji-choice';
import { LanguageChoice } from './language-choice';
import { useTheme } from '../theme/theme-provider';
import { changePassword, removeAvatar, uploadAvatar } from './account-api';
import { AppPasswordsSection } from './app-passwords-section';
import { AvatarCropDialog } from './avatar-crop-dialog';
import { DevicesSection } from './devices-section';
import { appPasswordsQuery, devicesQuery } from './devices-api';
import { TwoFactorSection } from './two-factor-section';
import { LinkedAccountsSection } from './linked-accounts-section';
import { FormFooter } from '../../components/ui/form-footer';
import { AccountSection } from './account-section';

const MEGABYTES = AVATAR_MAX_BYTES / 1024 / 1024;

/** /user/profile: photo, names, e-mail and password. */
export function ProfilePage() {
  const { t } = useTranslation();
  const { user } = useSession();
  if (!user) return null;
  return (
    <section className="flex max-w-3xl flex-col gap-6">
      <header className="flex flex-col gap-1">
        <p className="text-xs font-semibold tracking-[0.14em] text-accent uppercase">{t('profile.area')}</p>
        <h1 className="font-display text-3xl font-semibold tracking-tight sm:text-4xl">
          {t('profile.title')}
        </h1>
      </header>
      <AccountSection title={t('profile.details_title')} lead={t('profile.details_lead')}>
        <AvatarSection user={user} />
        <DetailsFields user={user} />
      </AccountSection>
      <AccountSection title={t('profile.appearance_title')} lead={t('profile.appearance_lead')}>
        <ThemeChoice />
        <EmojiChoice />
        <LanguageChoice />
      </AccountSection>
      <AccountSection title={t('profile.password_title')} lead={t('profile.password_lead')}>
        <PasswordForm />
      </AccountSection>
      <AccountSection title={t('two_factor.title')} lead={t('two_factor.lead')}>
        <TwoFactorSection />
      </AccountSection>
      <LinkedAccountsSection />
      <DevicesSection />
      <AppPasswordsSection />
    </section>
  );
}

/** The photo: picked, checked, cropped square in the browser, then uploaded; or removed. */
function AvatarSection({ user }: { user: User }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const showGenericError = useGenericError();
  const input = useRef<HTMLInputElement>(null);
  const [picked, setPicked] = useState<{ image: HTMLImageElement; url: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [removing, setRemoving] = useState(false);
  const hasPhoto = user.attributes.avatar.md !== null;

  const refused = (failure: unknown) => {
    if (failure instanceof ApiError && failure.status >= 400 && failure.status < 500)
      setError(t(failure.fieldError('avatar') ?? failure.message));
    else showGenericError();
  };

  const choose = (file: File | undefined) => {
    setError(null);
    if (!file) return;
    if (!(AVATAR_TYPES as readonly string[]).includes(file.type))
      return setError(t('validation.avatar_type'));
    if (file.size > AVATAR_MAX_BYTES)
      return setError(t('validation.avatar_too_large', { megabytes: MEGABYTES }));
    const url = URL.createObjectURL(file);
    const image = new Image();
    image.onload = () => setPicked({ image, url });
    image.onerror = () => {
      URL.revokeObjectURL(url);
      setError(t('validation.avatar_unreadable'));
    };
    image.src = url;
  };

  const closeCrop = () => {
    if (picked) URL.revokeObjectURL(picked.url);
    setPicked(null);
  };

  const save = async (cropped: Blob) => {
    try {
      queryClient.setQueryData(userQueryKey, await uploadAvatar(cropped));
      pushToast('success', t('profile.avatar_saved'));
    } catch (failure) {
      refused(failure);
    }
    closeCrop();
  };

  const remove = async () => {
    setError(null);
    setRemoving(true);
    try {
      queryClient.setQueryData(userQueryKey, await removeAvatar());
      pushToast('success', t('profile.avatar_removed'));
    } catch (failure) {
      refused(failure);
    } finally {
      setRemoving(false);
    }
  };

  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:gap-6">
      <Avatar person={user.attributes} size={96} className="text-4xl shadow-soft" />
      <div className="flex flex-col gap-3">
        <div>
          <h3 className="text-sm font-medium text-ink">{t('profile.avatar_title')}</h3>
          <p className="text-sm text-muted">{t('profile.avatar_lead', { megabytes: MEGABYTES })}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" size="sm" onClick={() => input.current?.click()}>
            <ImageUp className="size-4" aria-hidden />
            {t(hasPhoto ? 'profile.avatar_change' : 'profile.avatar_upload')}
          </Button>
          {hasPhoto && (
            <Button variant="ghost" size="sm" loading={removing} onClick={() => void remove()}>
              <Trash2 className="size-4" aria-hidden />
              {t('profile.avatar_remove')}
            </Button>
          )}
          <input
            ref={input}
            type="file"
            accept={AVATAR_TYPES.join(',')}
            // Opened by the button above; hidden from the accessibility tree, where the button stands for it.
            className="hidden"
            aria-label={t('profile.avatar_upload')}
            onChange={(event) => {
              choose(event.target.files?.[0]);
              // The same file may be picked again after a cancelled crop.
              event.target.value = '';
            }}
          />
        </div>
        {error && (
          <p role="alert" className="text-sm text-danger">
            {error}
          </p>
        )}
      </div>
      {picked && (
        <AvatarCropDialog key={picked.url} image={picked.image} onCancel={closeCrop} onSave={save} />
      )}
    </div>
  );
}

/** Names are user settings: saved as typed (debounced), blank values are not sent. */
function DetailsFields({ user }: { user: User }) {
  const { t } = useTranslation();
  const updateSetting = useUserSettings();
  const settings = user.relationships.settings.data.attributes;
  const [values, setValues] = useState({
    name: user.attributes.name,
    first_name: settings.first_name ?? '',
    last_name: settings.last_name ?? '',
  });

  const field = (name: keyof typeof values) => ({
    value: values[name],
    onChange: (event: { target: { value: string } }) => {
      const value = event.target.value;
      setValues({ ...values, [name]: value });
      if (value.trim()) updateSetting(name, value.trim());
    },
  });

  return (
    <div className="grid gap-5 border-t border-line pt-6 sm:grid-cols-2">
      <InputField
        label={t('profile.name')}
        autoComplete="name"
        className="sm:col-span-2"
        hint={t('profile.saved_as_you_type')}
        error={values.name.trim() ? undefined : t('validation.required')}
        {...field('name')}
      />
      <InputField label={t('profile.first_name')} autoComplete="given-name" {...field('first_name')} />
      <InputField label={t('profile.last_name')} autoComplete="family-name" {...field('last_name')} />
      <InputField
        label={t('profile.email')}
        type="email"
        value={user.attributes.email}
        readOnly
        className="sm:col-span-2"
        hint={t('profile.email_hint')}
      />
    </div>
  );
}

const THEME_ICONS: Record<ThemeMode, ReactNode> = {
  light: <Sun className="size-4" aria-hidden />,
  dark: <Moon className="size-4" aria-hidden />,
  system: <Monitor className="size-4" aria-hidden />,
};

/** The same choice as the sidebar's toggle, with system as a third way. */
function ThemeChoice() {
  const { t } = useTranslation();
  const { mode, setMode } = useTheme();
  return (
    <ChoiceCards
      label={t('profile.theme')}
      value={mode}
      onChange={setMode}
      columns={3}
      choices={(['light', 'dark', 'system'] as const).map((value) => ({
        value,
        title: t(`theme.${value}`),
        description: t(`profile.theme_${value}`),
        icon: THEME_ICONS[value],
      }))}
    />
  );
}

const NO_PASSWORDS = { current_password: '', password: '', password_confirmation: '' };

function PasswordForm() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [values, setValues] = useState(NO_PASSWORDS);
  const form = useApiForm(
    () => changePassword(validateWith(ChangePasswordBody, values)),
    () => {
      setValues(NO_PASSWORDS);
      // The server signed the other devices out and revoked every app password.
      void queryClient.invalidateQueries(devicesQuery);
      void queryClient.invalidateQueries(appPasswordsQuery);
      pushToast('success', t('profile.password_changed'));
    },
  );
  const bind = bindField(values, setValues, form.fieldErrors);

  return (
    <form className="grid gap-5 sm:grid-cols-2" onSubmit={form.onSubmit} noValidate>
      <InputField
        label={t('profile.current_password')}
        type="password"
        autoComplete="current-password"
        className="sm:col-span-2"
        {...bind('current_password')}
      />
      <InputField
        label={t('profile.new_password')}
        type="password"
        autoComplete="new-password"
        hint={t('auth.password_hint')}
        {...bind('password')}
      />
      <InputField
        label={t('profile.password_confirmation')}
        type="password"
        autoComplete="new-password"
        {...bind('password_confirmation')}
      />
      <FormFooter error={form.formError}>
        <Button type="submit" loading={form.submitting}>
          {t('profile.password_submit')}
        </Button>
      </FormFooter>
    </form>
  );
}
