import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../lib/cn';

/**
 * The link as a QR code, drawn as SVG (no canvas needed). The encoder loads only when a dialog
 * shows a code, so it stays out of the file manager's first load.
 */
export function ShareQrCode({ value, className }: { value: string; className?: string }) {
  const { t } = useTranslation();
  const [source, setSource] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    void import('qrcode')
      .then((qrcode) => qrcode.toString(value, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }))
      .then((svg) => current && setSource(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`))
      .catch(() => current && setSource(null));
    return () => {
      current = false;
    };
  }, [value]);

  // Scanners need dark modules on light paper, whatever the theme.
  return (
    <div
      className={cn(
        'grid size-32 shrink-0 place-items-center rounded-2xl bg-white p-2 shadow-soft',
        className,
      )}
    >
      {source ? (
        <img src={source} alt={t('sharing.qr_code')} className="size-full [image-rendering:pixelated]" />
      ) : (
        <span className="size-full animate-pulse rounded-lg bg-black/5" aria-hidden />
      )}
    </div>
  );
}
