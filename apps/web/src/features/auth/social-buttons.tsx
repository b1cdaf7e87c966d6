import type { PublicSocialProvider } from '@atelier/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button';
import { useGenericError } from '../../components/overlays/use-generic-error';
import { api } from '../../lib/api-client';

/** One button per configured provider; the server hands back the provider's sign-in address. */
export function SocialButtons({ providers }: { providers: PublicSocialProvider[] }) {
  const { t } = useTranslation();
  const showGenericError = useGenericError();
  const [pending, setPending] = useState<string | null>(null);
  if (providers.length === 0) return null;

  const go = async (provider: string) => {
    setPending(provider);
    try {
      const { data } = await api.get<{ data: { url: string } }>(
        `/api/socialite/${encodeURIComponent(provider)}/redirect`,
      );
      window.location.assign(data.url);
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
      <div className="grid grid-cols-2 gap-2">
        {providers.map(({ name, kind, label }) => (
          <Button key={name} variant="secondary" loading={pending === name} onClick={() => void go(name)}>
            {label ?? t(`auth.provider.${kind}`, { defaultValue: name })}
          </Button>
        ))}
      </div>
    </div>
  );
}
