import type { NotificationList, UserResource } from '@atelier/contracts';
import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api, apiRequest } from '../../lib/api-client';
import { userQueryKey } from '../session/session-queries';

export const notificationsQueryKey = ['notifications'] as const;

/** The centre's list, newest first; fetched each time the centre opens. */
export const notificationsQuery = queryOptions({
  queryKey: notificationsQueryKey,
  queryFn: () => api.get<NotificationList>('/api/notifications'),
  staleTime: 0,
});

/** The bell counts the user resource's unread notifications; keep it in step without a refetch. */
function updateUserNotifications(
  client: QueryClient,
  change: (
    relationships: UserResource['data']['relationships'],
  ) => Partial<UserResource['data']['relationships']>,
) {
  client.setQueryData<UserResource | null>(userQueryKey, (resource) =>
    resource
      ? {
          ...resource,
          data: {
            ...resource.data,
            relationships: { ...resource.data.relationships, ...change(resource.data.relationships) },
          },
        }
      : resource,
  );
}

/** Opening the centre reads everything. */
export function useReadAll() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post('/api/notifications/read'),
    onSuccess: () =>
      updateUserNotifications(client, (relationships) => ({
        readNotifications: {
          data: [...relationships.unreadNotifications.data, ...relationships.readNotifications.data],
        },
        unreadNotifications: { data: [] },
      })),
  });
}

export function useDeleteAll() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest('/api/notifications', { method: 'DELETE' }),
    onSuccess: () => {
      client.setQueryData<NotificationList>(notificationsQueryKey, (list) =>
        list
          ? {
              ...list,
              data: [],
              meta: { ...list.meta, unread: 0, paginate: { ...list.meta.paginate, total: 0 } },
            }
          : list,
      );
      updateUserNotifications(client, () => ({
        readNotifications: { data: [] },
        unreadNotifications: { data: [] },
      }));
    },
  });
}

/** Accepting or declining a team-folder invitation clears the notification's buttons. */
export function useAnswerInvitation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({
      invitationId,
      accept,
    }: {
      notificationId: string;
      invitationId: string;
      accept: boolean;
    }) =>
      apiRequest(`/api/teams/invitations/${encodeURIComponent(invitationId)}`, {
        method: accept ? 'PUT' : 'DELETE',
      }),
    onSuccess: (_, { notificationId }) =>
      client.setQueryData<NotificationList>(notificationsQueryKey, (list) =>
        list
          ? {
              ...list,
              data: list.data.map((n) =>
                n.id === notificationId ? { ...n, attributes: { ...n.attributes, action: null } } : n,
              ),
            }
          : list,
      ),
  });
}
