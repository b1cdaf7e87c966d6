import {
  SocialProviderConfigInput,
  SocialProvidersSetting,
  type SocialProviderAdminView,
  type SocialProviderConfig,
} from '@atelier/contracts';
import { z } from 'zod';
import { AppError } from '../../lib/app-error';

const SETTING = 'social_providers';

/**
 * Checks what the admin settings send for `social_providers` and returns the list to store. A
 * provider sent without a secret keeps the one stored under its name (secrets are never read back);
 * a new provider without one is refused. Throws a 422 naming `social_providers.{i}.{field}`.
 */
export function parseSocialProvidersSetting(
  input: unknown,
  stored: readonly SocialProviderConfig[],
): SocialProviderConfig[] {
  const sent = z.array(SocialProviderConfigInput).safeParse(input);
  if (!sent.success) throw invalid(sent.error);
  const storedSecrets = new Map(stored.map((p) => [p.name, p.client_secret]));
  const merged = sent.data.map((p) => ({
    ...p,
    client_secret: p.client_secret || storedSecrets.get(p.name) || '',
  }));
  const checked = SocialProvidersSetting.safeParse(merged);
  if (!checked.success) throw invalid(checked.error);
  return checked.data;
}

/** The setting as the admin reads it: every field but the secret, which shows only as set. */
export function presentSocialProvidersForAdmin(
  stored: readonly SocialProviderConfig[],
): SocialProviderAdminView[] {
  return stored.map(({ client_secret, ...rest }) => ({
    ...rest,
    client_secret: null,
    client_secret_set: client_secret.length > 0,
  }));
}

function invalid(error: z.ZodError): AppError {
  const errors: Record<string, string[]> = {};
  for (const issue of error.issues) {
    (errors[[SETTING, ...issue.path].join('.')] ??= []).push(issue.message);
  }
  return new AppError('validation_failed', 'errors.validation_failed', errors);
}
