import type { SocialProviderKind } from '@atelier/contracts';
import { Facebook, Github, KeyRound } from 'lucide-react';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../lib/cn';

/** Google's four-colour G, as its sign-in guidelines ask buttons to show it. */
function GoogleMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 48 48" aria-hidden className={className}>
      <path
        fill="#FFC107"
        d="M43.6 20.1H42V20H24v8h11.3C33.7 32.7 29.2 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3.1 0 5.8 1.2 8 3l5.7-5.7C34 6.1 29.3 4 24 4 13 4 4 13 4 24s9 20 20 20 20-9 20-20c0-1.3-.1-2.6-.4-3.9z"
      />
      <path
        fill="#FF3D00"
        d="m6.3 14.7 6.6 4.8C14.7 15.1 19 12 24 12c3.1 0 5.8 1.2 8 3l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7z"
      />
      <path
        fill="#4CAF50"
        d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2C29.2 35.1 26.7 36 24 36c-5.2 0-9.6-3.3-11.3-7.9l-6.5 5C9.5 39.6 16.2 44 24 44z"
      />
      <path
        fill="#1976D2"
        d="M43.6 20.1H42V20H24v8h11.3c-.8 2.2-2.2 4.2-4.1 5.6l6.2 5.2C37 39.2 44 34 44 24c0-1.3-.1-2.6-.4-3.9z"
      />
    </svg>
  );
}

/** The mark of a provider kind; an OpenID Connect provider of the admin's gets a key. */
export function SocialProviderIcon({ kind, className }: { kind: SocialProviderKind; className?: string }) {
  const classes = cn('size-4 shrink-0', className);
  if (kind === 'google') return <GoogleMark className={classes} />;
  if (kind === 'github') return <Github aria-hidden className={classes} />;
  if (kind === 'facebook') return <Facebook aria-hidden className={cn(classes, 'text-[#1877F2]')} />;
  return <KeyRound aria-hidden className={cn(classes, 'text-accent')} />;
}

/** The name a provider is shown by: the admin's label, the preset's name, or its URL name. */
export function useSocialProviderLabel() {
  const { t } = useTranslation();
  return useCallback(
    (provider: { name: string; kind: SocialProviderKind | null; label: string | null }) =>
      provider.label ??
      (provider.kind && provider.kind !== 'oidc' ? t(`auth.provider.${provider.kind}`) : provider.name),
    [t],
  );
}
