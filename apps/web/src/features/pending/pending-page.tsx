import { Hammer } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useMatches } from 'react-router';
import type { RouteHandle } from '../../components/sidebar/sidebar-entries';
import { Card } from '../../components/ui/card';

/** A screen whose content ships with a later part of Atelier; route, title and navigation are live. */
export function PendingPage() {
  const { t } = useTranslation();
  const matches = useMatches();
  const handle = (matches.at(-1)?.handle ?? {}) as RouteHandle;
  const title = t(handle.titleKey ?? 'pages.untitled');
  const area = t(`pending.area.${handle.area ?? 'account'}`);

  return (
    <section className="flex flex-col gap-6">
      <header className="flex flex-col gap-1">
        <p className="text-xs font-semibold tracking-[0.14em] text-accent uppercase">{area}</p>
        <h1 className="font-display text-3xl font-semibold tracking-tight sm:text-4xl">{title}</h1>
      </header>
      <Card className="relative overflow-hidden">
        <div
          aria-hidden
          className="absolute inset-0 opacity-60 [background-image:radial-gradient(var(--line)_1px,transparent_1px)] [background-size:18px_18px]"
        />
        <div className="relative flex flex-col items-center gap-3 px-6 py-16 text-center sm:py-24">
          <span className="grid size-14 place-items-center rounded-2xl bg-accent-soft text-accent shadow-soft">
            <Hammer className="size-7" aria-hidden />
          </span>
          <h2 className="font-display text-xl font-semibold">{t('pending.title')}</h2>
          <p className="max-w-md text-sm leading-relaxed text-muted">{t('pending.body', { area, title })}</p>
        </div>
      </Card>
    </section>
  );
}
