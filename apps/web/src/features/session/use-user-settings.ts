import type { UserResource } from '@atelier/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api-client';
import { pushToast } from '../../components/overlays/overlay-store';
import { createSettingsUpdater } from './settings-updater';
import { userQueryKey } from './session-queries';

type SettingsAttributes = UserResource['data']['relationships']['settings']['data']['attributes'];

/** Updates a user setting: the cached user changes at once, the server hears of it debounced. */
export function useUserSettings() {
  const queryClient = useQueryClient();
  const { t } = useTranslation();

  return useMemo(() => {
    const update = createSettingsUpdater((name, value) =>
      api.post('/api/user/settings', { name, value, _method: 'patch' }).catch(() => {
        pushToast('danger', t('settings.save_failed'));
      }),
    );
    return <K extends keyof SettingsAttributes>(
      name: K,
      value: SettingsAttributes[K],
      options?: { force?: boolean },
    ) => {
      queryClient.setQueryData<UserResource | null>(userQueryKey, (current) => {
        if (!current) return current;
        const settings = current.data.relationships.settings;
        return {
          ...current,
          data: {
            ...current.data,
            // The display name is also the user's own attribute, which the sidebar and avatars show.
            attributes:
              name === 'name'
                ? { ...current.data.attributes, name: value as string }
                : current.data.attributes,
            relationships: {
              ...current.data.relationships,
              settings: {
                ...settings,
                data: { ...settings.data, attributes: { ...settings.data.attributes, [name]: value } },
              },
            },
          },
        };
      });
      update(name, value, options);
    };
  }, [queryClient, t]);
}
