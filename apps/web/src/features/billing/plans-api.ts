import type {
  AdminPlanList,
  AdminPlanResource,
  PlanSubscriberList,
  UpdatePlanBody,
} from '@atelier/contracts';
import { api } from '../../lib/api-client';

export const planKeys = {
  all: ['plans'] as const,
  list: (page: number) => ['plans', 'list', page] as const,
  plan: (id: string) => ['plans', 'detail', id] as const,
  subscribers: (id: string, page: number) => ['plans', 'subscribers', id, page] as const,
};

const planPath = (id: string) => `/api/admin/plans/${encodeURIComponent(id)}`;

export const fetchPlans = (page: number) => api.get<AdminPlanList>(`/api/admin/plans?page=${page}`);

export const fetchPlan = (id: string) => api.get<AdminPlanResource>(planPath(id));

export const fetchSubscribers = (id: string, page: number) =>
  api.get<PlanSubscriberList>(`${planPath(id)}/subscribers?page=${page}`);

/** The form's values as typed; the server checks them and answers 422 per field. */
export const createPlan = (body: Record<string, unknown>) =>
  api.post<AdminPlanResource>('/api/admin/plans', body);

export const updatePlan = (id: string, body: UpdatePlanBody | Record<string, unknown>) =>
  api.post<AdminPlanResource>(planPath(id), { ...body, _method: 'patch' });

/** Deleted (undefined, a 204) when nobody holds the plan, else archived and answered. */
export const deletePlan = (id: string) =>
  api.post<AdminPlanResource | undefined>(planPath(id), { _method: 'delete' });
