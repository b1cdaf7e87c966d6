import type {
  AdminCreateUserBody,
  AdminDashboard,
  AdminPasswordBody,
  AdminUpdateUserBody,
  AdminUserDetail,
  AdminUserList,
  AdminUsersQuery,
  AuditList,
  UserResource,
} from '@atelier/contracts';
import { api } from '../../../lib/api-client';

/** The capacity field: empty for the instance default, else GB as typed. */
export function gigabytesOf(text: string): number | null | string {
  if (text.trim() === '') return null;
  const value = Number(text.replace(',', '.'));
  return Number.isFinite(value) ? value : text;
}

export const adminKeys = {
  all: ['admin'] as const,
  dashboard: ['admin', 'dashboard'] as const,
  users: ['admin', 'users'] as const,
  userList: (query: Partial<AdminUsersQuery>) => ['admin', 'users', 'list', query] as const,
  user: (id: string) => ['admin', 'users', 'detail', id] as const,
  audit: (page: number) => ['admin', 'audit', page] as const,
};

export const fetchDashboard = () => api.get<AdminDashboard>('/api/admin/dashboard');

export function fetchUsers(query: Partial<AdminUsersQuery>): Promise<AdminUserList> {
  const params = new URLSearchParams(
    Object.entries(query).flatMap(([key, value]) =>
      value === undefined || value === '' ? [] : [[key, String(value)]],
    ),
  );
  return api.get<AdminUserList>(`/api/admin/users?${params}`);
}

export const fetchUser = (id: string) =>
  api.get<AdminUserDetail>(`/api/admin/users/${encodeURIComponent(id)}`);

export const fetchAudit = (page: number) => api.get<AuditList>(`/api/admin/audit?page=${page}`);

export const createUser = (body: AdminCreateUserBody) => api.post<UserResource>('/api/admin/users', body);

export const updateUser = (id: string, body: AdminUpdateUserBody) =>
  api.post<UserResource>(`/api/admin/users/${encodeURIComponent(id)}`, { ...body, _method: 'patch' });

export const setCapacity = (id: string, gigabytes: number | null) =>
  api.post<UserResource>(`/api/admin/users/${encodeURIComponent(id)}/capacity`, {
    max_storage_amount: gigabytes,
    _method: 'patch',
  });

export const setPassword = (id: string, body: AdminPasswordBody) =>
  api.post(`/api/admin/users/${encodeURIComponent(id)}/password`, body);

export const deleteUser = (id: string, name: string) =>
  api.post(`/api/admin/users/${encodeURIComponent(id)}`, { name, _method: 'delete' });
