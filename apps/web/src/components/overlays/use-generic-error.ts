import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { showAlert } from './overlay-store';

/** The description's generic failure: popup_error.title / popup_error.message. */
export function useGenericError() {
  const { t } = useTranslation();
  return useCallback(() => showAlert(t('popup_error.title'), t('popup_error.message')), [t]);
}
