import type {
  AdminSettings,
  ServerStatus,
  SettingsGroup,
  SettingsImageAnswer,
  SettingsImageName,
} from '@atelier/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

const settingsKey = (group: SettingsGroup) => ['admin', 'settings', group] as const;

/** One tab's settings as the server answers them (secrets as null beside `{name}_set`). */
export function useAdminSettings(group: SettingsGroup) {
  return useQuery({
    queryKey: settingsKey(group),
    queryFn: () => api.get<AdminSettings>('/api/admin/settings', { query: { group } }),
  });
}

/**
 * Saves settings (a 422 names each refused one) and refreshes what depends on them: the tab's
 * own values and the public config every screen reads (title, logos, registration…).
 */
export function useSaveSettings(group: SettingsGroup) {
  const queryClient = useQueryClient();
  return async (settings: Record<string, unknown>) => {
    await api.post('/api/admin/settings', { settings });
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: settingsKey(group) }),
      queryClient.invalidateQueries({ queryKey: ['config'] }),
    ]);
  };
}

export function uploadSettingsImage(name: SettingsImageName, image: File): Promise<SettingsImageAnswer> {
  const form = new FormData();
  form.append('name', name);
  form.append('image', image, image.name);
  return api.post<SettingsImageAnswer>('/api/admin/settings/image', form);
}

export function useServerStatus() {
  return useQuery({
    queryKey: ['admin', 'server-status'],
    queryFn: () => api.get<ServerStatus>('/api/admin/server-status'),
    refetchInterval: 30_000,
  });
}
