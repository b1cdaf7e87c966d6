import { ArrowRight, Clapperboard, FileBox, FolderUp, Share2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { useConfig } from '../session/session-queries';
import { StudioIllustration } from './studio-illustration';

const TOUR = [
  { key: 'upload', icon: FolderUp },
  { key: 'project', icon: FileBox },
  { key: 'render', icon: Clapperboard },
  { key: 'share', icon: Share2 },
] as const;

/** A guided tour of what a day in Atelier looks like. */
export function DemoPage() {
  const { t } = useTranslation();
  const config = useConfig();
  return (
    <section className="mx-auto max-w-6xl px-4 py-16 sm:px-6 sm:py-24">
      <div className="mx-auto flex max-w-2xl flex-col items-center gap-5 text-center">
        <p className="text-xs font-semibold tracking-[0.14em] text-accent uppercase">{t('demo.eyebrow')}</p>
        <h1 className="font-display text-4xl font-semibold tracking-tight text-balance sm:text-5xl">
          {t('demo.title')}
        </h1>
        <p className="text-lg leading-relaxed text-muted">{t('demo.lead')}</p>
      </div>
      <div className="mt-14 grid items-start gap-12 lg:grid-cols-[1fr_1.1fr]">
        <ol className="flex flex-col gap-4">
          {TOUR.map(({ key, icon: Icon }, index) => (
            <li key={key} className="flex gap-4 rounded-2xl border border-line bg-surface p-5 shadow-soft">
              <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-accent-soft text-accent">
                <Icon className="size-5" aria-hidden />
              </span>
              <div>
                <h2 className="font-semibold">
                  <span className="mr-2 text-accent">{index + 1}.</span>
                  {t(`demo.step.${key}.title`)}
                </h2>
                <p className="mt-1 text-sm leading-relaxed text-muted">{t(`demo.step.${key}.body`)}</p>
              </div>
            </li>
          ))}
        </ol>
        <div className="flex flex-col gap-8 lg:sticky lg:top-24">
          <StudioIllustration />
          <div className="flex flex-wrap justify-center gap-3">
            <Button asChild size="lg">
              <Link to={config.registration ? '/inhouse-sign-up' : '/sign-in'}>
                {t('demo.cta')}
                <ArrowRight className="size-4" aria-hidden />
              </Link>
            </Button>
            <Button asChild size="lg" variant="secondary">
              <Link to="/contact-us">{t('demo.contact')}</Link>
            </Button>
          </div>
        </div>
      </div>
    </section>
  );
}
