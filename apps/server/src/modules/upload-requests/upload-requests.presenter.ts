import type { UploadRequestResource, UploadRequestStatus } from '@atelier/contracts';
import type { UserRow } from '../../db/schema';
import { presentAvatar } from '../users/users.presenter';
import type { OpenedUploadRequest } from './upload-requests.repository';

/** The outsider's page of a request. */
export function uploadRequestLink(appUrl: string, id: string): string {
  return `${appUrl}/request/${id}/upload`;
}

/** The status a request has at `now`: an open one whose time ran out is `expired`. */
export function statusAt(request: OpenedUploadRequest, now: Date): UploadRequestStatus {
  if (request.status === 'filled') return 'filled';
  return new Date(request.expires_at) <= now ? 'expired' : request.status;
}

/** How the request ended by `now` ('filled' or 'expired'), or null while it takes files. */
export function endedAt(request: OpenedUploadRequest, now: Date): 'filled' | 'expired' | null {
  const status = statusAt(request, now);
  return status === 'filled' || status === 'expired' ? status : null;
}

/** A request as its owner lists it, or (with `owner`) as its outsider's page shows it. */
export function presentUploadRequest(
  request: OpenedUploadRequest,
  context: { appUrl: string; now: Date; owner?: Pick<UserRow, 'name' | 'avatar'> },
): UploadRequestResource {
  return {
    id: request.id,
    type: 'upload-request',
    attributes: {
      status: statusAt(request, context.now),
      name: request.name,
      notes: request.notes,
      email: request.email,
      expires_at: request.expires_at,
      link: uploadRequestLink(context.appUrl, request.id),
      created_at: request.created_at,
      received: Number(request.received),
      ...(context.owner
        ? { owner: { name: context.owner.name, avatar: presentAvatar(context.owner.avatar) } }
        : {}),
    },
    relationships: {
      folder: { data: { id: request.folder_id, type: 'folder', attributes: { name: request.folder_name } } },
    },
  };
}
