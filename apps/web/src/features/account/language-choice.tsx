import { useTranslation } from 'react-i18next';
import { SelectField } from '../../components/ui/field';
import { switchLanguage } from '../../lib/i18n';
import { localeFor } from '../../lib/pick-locale';
import { useConfig, useSession } from '../session/session-queries';
import { useUserSettings } from '../session/use-user-settings';

/** Empty: no choice of the user's own (the browser's language or the instance default applies). */
const AUTOMATIC = '';

/** The interface language, saved to the account; the tab switches at once. */
export function LanguageChoice() {
  const { t, i18n } = useTranslation();
  const config = useConfig();
  const { user } = useSession();
  const updateSetting = useUserSettings();
  const chosen = user?.relationships.settings.data.attributes.locale ?? null;
  // A language the admin removed since is no choice any more.
  const value =
    chosen && config.languages.some((language) => language.locale === chosen) ? chosen : AUTOMATIC;

  function change(next: string) {
    const locale = next === AUTOMATIC ? null : next;
    updateSetting('locale', locale, { force: true });
    void switchLanguage(i18n, localeFor(config, locale));
  }

  return (
    <SelectField
      label={t('profile.language')}
      value={value}
      onChange={(event) => change(event.target.value)}
      options={[
        { value: AUTOMATIC, label: t('profile.language_automatic') },
        ...config.languages.map((language) => ({ value: language.locale, label: language.name })),
      ]}
    />
  );
}
