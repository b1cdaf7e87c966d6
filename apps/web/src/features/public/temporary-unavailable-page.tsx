import { Wrench } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useConfig } from '../session/session-queries';

/** Shown while the instance is in maintenance mode. */
export function TemporaryUnavailablePage() {
  const { t } = useTranslation();
  const config = useConfig();
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center gap-5 px-4 py-24 text-center sm:py-32">
      <span className="grid size-16 place-items-center rounded-2xl bg-accent-soft text-accent shadow-soft">
        <Wrench className="size-8" aria-hidden />
      </span>
      <h1 className="font-display text-4xl font-semibold tracking-tight">{t('maintenance.title')}</h1>
      <p className="text-lg leading-relaxed text-muted">{t('maintenance.body', { name: config.app.name })}</p>
    </section>
  );
}
