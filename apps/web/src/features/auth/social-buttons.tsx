import { SOCIAL_SIGN_IN_ERRORS, type PublicSocialProvider, type SocialSignInError } from '@atelier/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useGenericError } from '../../components/overlays/use-generic-error';
import { Button } from '../../components/ui/button';
import { startSocialRedirect } from '../account/social-accounts-api';
import { FormError } from './auth-heading';
import { SocialProviderIcon, useSocialProviderLabel } from './social-provider-icon';

/** The `social_error` a refused provider callback sent the browser back with, if it is one we know. */
export function useSocialError(): SocialSignInError | null {
  const [params] = useSearchParams();
  const error = params.get('social_error');
  return SOCIAL_SIGN_IN_ERRORS.find((known) => known === error) ?? null;
}

/**
 * One button per enabled provider; the server hands back the provider's sign-in address. Above
 * them, why the last attempt through a provider was refused.
 */
export function SocialButtons({ providers }: { providers: PublicSocialProvider[] }) {
  const { t } = useTranslation();
  const labelOf = useSocialProviderLabel();
  const showGenericError = useGenericError();
  const refusal = useSocialError();
  const [pending, setPending] = useState<string | null>(null);
  if (providers.length === 0) return <FormError message={refusal && t(`social.error.${refusal}`)} />;

  const go = async (provider: string) => {
    setPending(provider);
    try {
      window.location.assign(await startSocialRedirect(provider, 'sign_in'));
    } catch {
      setPending(null);
      showGenericError();
    }
  };

  return (
    <div className="flex flex-col gap-3">
      <div className="flex items-center gap-3 text-xs text-muted">
        <span className="h-px flex-1 bg-line" />
        {t('auth.or_continue_with')}
        <span className="h-px flex-1 bg-line" />
      </div>
      <FormError message={refusal && t(`social.error.${refusal}`)} />
      <div className={providers.length > 1 ? 'grid grid-cols-1 gap-2 sm:grid-cols-2' : 'flex flex-col'}>
        {providers.map((provider) => (
          <Button
            key={provider.name}
            variant="secondary"
            loading={pending === provider.name}
            onClick={() => void go(provider.name)}
            aria-label={t('social.continue_with', { provider: labelOf(provider) })}
          >
            {pending !== provider.name && <SocialProviderIcon kind={provider.kind} />}
            <span className="truncate">{labelOf(provider)}</span>
          </Button>
        ))}
      </div>
    </div>
  );
}
