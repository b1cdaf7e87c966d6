import { SOURCE_LOCALE } from '@atelier/contracts/constants';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { subscribeRealtime } from '../../lib/realtime';
import { useConfig } from './session-queries';

/**
 * The admin changed strings of the language this tab shows (or English, which fills what a
 * language lacks): fetch them again and redraw, so an open page reads the new text at once. Pages
 * without a realtime connection (signed out, realtime off) get it at their next load.
 */
export function useTranslationUpdates() {
  const { i18n } = useTranslation();
  const realtimeOn = useConfig().broadcasting.driver !== 'null';
  useEffect(() => {
    if (!realtimeOn) return;
    return subscribeRealtime('translations.updated', ({ locale }) => {
      if (locale !== i18n.language && locale !== SOURCE_LOCALE) return;
      // react-i18next redraws on languageChanged; switching to the same language emits it.
      void i18n.reloadResources(i18n.language).then(() => i18n.changeLanguage(i18n.language));
    });
  }, [i18n, realtimeOn]);
}
