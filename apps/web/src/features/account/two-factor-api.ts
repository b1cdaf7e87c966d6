import type { RecoveryCodes, TwoFactorSetup, TwoFactorStatus } from '@atelier/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api-client';

const ADDRESS = '/api/user/two-factor-authentication';

export const twoFactorQuery = queryOptions({
  queryKey: ['user', 'two-factor'],
  queryFn: () => api.get<TwoFactorStatus>(ADDRESS),
});

export function beginTwoFactor(password: string): Promise<TwoFactorSetup> {
  return api.post<TwoFactorSetup>(ADDRESS, { password });
}

export function confirmTwoFactor(code: string): Promise<RecoveryCodes> {
  return api.post<RecoveryCodes>('/api/user/confirmed-two-factor-authentication', { code });
}

export function regenerateRecoveryCodes(password: string): Promise<RecoveryCodes> {
  return api.post<RecoveryCodes>('/api/user/two-factor-recovery-codes', { password });
}

export function disableTwoFactor(password: string): Promise<void> {
  return api.post(ADDRESS, { password, _method: 'delete' });
}
