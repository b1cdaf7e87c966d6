import type { ChangePasswordBody, UserResource } from '@atelier/contracts';
import { api } from '../../lib/api-client';

export function uploadAvatar(image: Blob): Promise<UserResource> {
  const form = new FormData();
  form.append('avatar', image, 'avatar.webp');
  return api.post<UserResource>('/api/user/avatar', form);
}

export function removeAvatar(): Promise<UserResource> {
  return api.post<UserResource>('/api/user/avatar/current', { _method: 'delete' });
}

export function changePassword(body: ChangePasswordBody): Promise<void> {
  return api.post('/api/user/password', body);
}
