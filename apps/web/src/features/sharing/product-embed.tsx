import { productPagePath } from '@atelier/contracts';
import { ExternalLink, LockKeyhole } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { FrameNotice } from '../../components/public-frame';
import { Button } from '../../components/ui/button';

/**
 * Whether the product page shows inside another site's frame: the embed codes open it with
 * `?embed=1`, and it then leaves out the site's frame and keeps to the product.
 */
export function isEmbedded(search: string = window.location.search): boolean {
  return new URLSearchParams(search).get('embed') === '1';
}

/** The embedded page's way out: the product page on its own, in a tab of its own (out of the shop's frame). */
export function EmbedOpenLink({
  token,
  variant = 'ghost',
}: {
  token: string;
  variant?: 'ghost' | 'primary';
}) {
  const { t } = useTranslation();
  return (
    <Button asChild variant={variant} size="sm">
      <a
        href={new URL(productPagePath(token), window.location.origin).href}
        target="_blank"
        rel="noopener"
        aria-label={t('product.open_page')}
      >
        {t('product.embed_open')}
        <ExternalLink className="size-4" aria-hidden />
      </a>
    </Button>
  );
}

/**
 * A protected product in a shop's frame: the password's session is a cookie of this site, which
 * browsers keep from another site's frame, so the visitor gives it on the page itself.
 */
export function EmbedLocked({ token }: { token: string }) {
  const { t } = useTranslation();
  return (
    <FrameNotice
      icon={LockKeyhole}
      title={t('product.embed_locked_title')}
      body={t('product.embed_locked_body')}
    >
      <EmbedOpenLink token={token} variant="primary" />
    </FrameNotice>
  );
}
