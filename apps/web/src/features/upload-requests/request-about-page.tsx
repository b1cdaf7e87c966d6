import { FolderUp, Link2, LockKeyhole, TimerOff } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { useConfig } from '../session/session-queries';

const POINTS = [
  { key: 'link', icon: Link2 },
  { key: 'private', icon: LockKeyhole },
  { key: 'ends', icon: TimerOff },
] as const;

/**
 * /request without a link's code: what an upload request is, for someone who typed the address or
 * lost the end of their link, and what to do next.
 */
export function RequestAboutPage() {
  const { t } = useTranslation();
  const config = useConfig();
  return (
    <section className="mx-auto flex max-w-2xl flex-col gap-8 px-4 py-16 sm:px-6 sm:py-24">
      <div className="flex flex-col items-center gap-4 text-center">
        <span className="grid size-16 place-items-center rounded-2xl bg-accent-soft text-accent shadow-soft">
          <FolderUp className="size-8" aria-hidden />
        </span>
        <h1 className="font-display text-4xl font-semibold tracking-tight text-balance">
          {t('upload_requests.about.title')}
        </h1>
        <p className="text-lg leading-relaxed text-muted">
          {t('upload_requests.about.lead', { name: config.app.name })}
        </p>
      </div>
      <ul className="flex flex-col gap-3">
        {POINTS.map(({ key, icon: Icon }) => (
          <li key={key} className="flex gap-4 rounded-2xl border border-line bg-surface p-5 shadow-soft">
            <span className="grid size-10 shrink-0 place-items-center rounded-xl bg-surface-2 text-accent">
              <Icon className="size-5" aria-hidden />
            </span>
            <div>
              <h2 className="font-semibold">{t(`upload_requests.about.${key}_title`)}</h2>
              <p className="mt-1 text-sm leading-relaxed text-muted">
                {t(`upload_requests.about.${key}_body`)}
              </p>
            </div>
          </li>
        ))}
      </ul>
      <Button asChild variant="secondary" className="self-center">
        <Link to="/">{t('not_found.home')}</Link>
      </Button>
    </section>
  );
}
