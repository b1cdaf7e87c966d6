import type {
  InvitationOutcome,
  NotificationList,
  NotificationResource,
  UserResource,
} from '@atelier/contracts';
import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { pushToast } from '../../components/overlays/overlay-store';
import { ApiError, api, apiRequest } from '../../lib/api-client';
import { userQueryKey } from '../session/session-queries';
import { teamsApi, teamsKeys } from '../teams/teams-api';

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

/** A refusal (4xx) says why and may have ended the invitation; a failure (5xx, no network) changed nothing. */
export const isRefusal = (error: unknown): error is ApiError =>
  error instanceof ApiError && error.status >= 400 && error.status < 500;

const offers = (notification: NotificationResource, invitationId: string) =>
  notification.attributes.action?.type === 'invitation' &&
  notification.attributes.action.params.id === invitationId;

/**
 * Accepting or declining a team-folder invitation (section 4): the success toast, its notifications
 * saying how it ended at once (the server keeps that, and the folder an accepted one opens), and
 * Shared with me read again. An invitation that can no longer be answered (410: expired or answered
 * elsewhere) shows how it ended once the list is read again; one that is gone (404) leaves the list.
 * A refusal is told in a toast; a failure is the caller's to show, beside a way to try again.
 */
export function useAnswerInvitation() {
  const client = useQueryClient();
  const { t } = useTranslation();
  const settle = (invitationId: string, outcome: InvitationOutcome) =>
    client.setQueryData<NotificationList>(notificationsQueryKey, (list) =>
      list
        ? {
            ...list,
            data: list.data.map((n) =>
              offers(n, invitationId) && n.attributes.action?.type === 'invitation'
                ? {
                    ...n,
                    attributes: {
                      ...n.attributes,
                      action: { ...n.attributes.action, params: { ...n.attributes.action.params, outcome } },
                    },
                  }
                : n,
            ),
          }
        : list,
    );
  // An invitation that is gone has no outcome to show: the server takes away what offered it, as this does.
  const forget = (invitationId: string) =>
    client.setQueryData<NotificationList>(notificationsQueryKey, (list) => {
      if (!list) return list;
      const dropped = list.data.filter((n) => offers(n, invitationId));
      return {
        data: list.data.filter((n) => !offers(n, invitationId)),
        meta: {
          ...list.meta,
          unread: list.meta.unread - dropped.filter((n) => n.attributes.read_at === null).length,
          paginate: { ...list.meta.paginate, total: list.meta.paginate.total - dropped.length },
        },
      };
    });
  const readInvitationAgain = (invitationId: string) =>
    void client.invalidateQueries({ queryKey: teamsKeys.invitation(invitationId) });
  const readAgain = (invitationId: string) => {
    void client.invalidateQueries({ queryKey: notificationsQueryKey });
    readInvitationAgain(invitationId);
  };
  return useMutation({
    mutationFn: ({
      invitationId,
      accept,
      token,
    }: {
      invitationId: string;
      accept: boolean;
      token?: string | null;
    }) => teamsApi.answer(invitationId, accept, token),
    onSuccess: (_, { invitationId, accept }) => {
      settle(invitationId, accept ? 'accepted' : 'rejected');
      pushToast(
        'success',
        t(accept ? 'notifications.you_accepted_invitation' : 'notifications.you_decline_invitation'),
      );
      readAgain(invitationId);
      void client.invalidateQueries({ queryKey: teamsKeys.side('member') });
    },
    onError: (error, { invitationId }) => {
      if (!isRefusal(error)) return;
      if (error.status === 404) {
        forget(invitationId);
        readInvitationAgain(invitationId);
        pushToast('danger', t('teams.invitation.missing_title'));
        return;
      }
      readAgain(invitationId);
      pushToast('danger', t(error.message));
    },
  });
}
