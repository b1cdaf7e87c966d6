import { Cookie } from 'lucide-react';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useConfig } from '../../features/session/session-queries';
import { Button } from '../ui/button';
import { readLocal, writeLocal } from '../../lib/local-store';

export const COOKIE_DISCLAIMER_KEY = 'atelier.cookie_disclaimer_dismissed';

/**
 * Keeps `--cookie-banner-space` on the page at the banner's height (and a gap) while it shows, so
 * toasts stack above it instead of covering it. Read when the browser has laid the banner out (and
 * again whenever its size changes), never forcing a layout of the page before its first paint.
 */
function useReservedSpace(banner: RefObject<HTMLElement | null>, shown: boolean) {
  useEffect(() => {
    const element = banner.current;
    if (!shown || !element) return;
    const root = document.documentElement.style;
    const observer = new ResizeObserver(() =>
      root.setProperty('--cookie-banner-space', `${element.offsetHeight + 8}px`),
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.removeProperty('--cookie-banner-space');
    };
  }, [banner, shown]);
}

const POLICY_PART = /<policy>([\s\S]*?)<\/policy>/;

/**
 * The notice's text with its `<policy>…</policy>` part as the link to the cookie policy (all text
 * where a translation left the tags out). Read here rather than with react-i18next's Trans, which
 * brings an HTML parser to every page's first load for this one sentence.
 */
function NoticeText({ text }: { text: string }) {
  const part = POLICY_PART.exec(text);
  if (!part) return text;
  return (
    <>
      {text.slice(0, part.index)}
      <Link to="/page/cookie-policy" className="font-medium text-ink underline underline-offset-2">
        {part[1]}
      </Link>
      {text.slice(part.index + part[0].length)}
    </>
  );
}

/** Shown once the instance is installed, until dismissed; the dismissal stays in this browser. */
export function CookieDisclaimer({ installed }: { installed: boolean }) {
  const { t } = useTranslation();
  const appName = useConfig().app.name;
  const [dismissed, setDismissed] = useState(() => readLocal(COOKIE_DISCLAIMER_KEY) === '1');
  const banner = useRef<HTMLElement>(null);
  useReservedSpace(banner, installed && !dismissed);
  if (!installed || dismissed) return null;

  const dismiss = () => {
    writeLocal(COOKIE_DISCLAIMER_KEY, '1');
    setDismissed(true);
  };

  return (
    <aside
      ref={banner}
      aria-label={t('cookies.label')}
      className="fixed inset-x-3 bottom-3 z-40 flex animate-rise-in flex-col gap-3 rounded-2xl border border-line bg-surface p-4 shadow-lift sm:bottom-6 sm:left-auto sm:right-6 sm:max-w-sm"
    >
      <div className="flex gap-3">
        <Cookie className="mt-0.5 size-5 shrink-0 text-accent" aria-hidden />
        <p className="text-sm leading-relaxed text-muted">
          <NoticeText text={t('cookies.message', { name: appName })} />
        </p>
      </div>
      <Button size="sm" className="self-end" onClick={dismiss}>
        {t('cookies.accept')}
      </Button>
    </aside>
  );
}
