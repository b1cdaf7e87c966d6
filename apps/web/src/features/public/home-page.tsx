import { ArrowRight, Boxes, FolderTree, Inbox, Link2, Server, Users } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { useConfig } from '../session/session-queries';
import { StudioIllustration } from './studio-illustration';

const FEATURES = [
  { key: 'files', icon: FolderTree },
  { key: 'sharing', icon: Link2 },
  { key: 'requests', icon: Inbox },
  { key: 'teams', icon: Users },
  { key: 'studio', icon: Boxes },
  { key: 'hosting', icon: Server },
] as const;

const STEPS = ['upload', 'choose', 'download'] as const;

export function HomePage() {
  const { t } = useTranslation();
  const config = useConfig();
  if (!config.allowHomepage) return <Navigate to="/sign-in" replace />;
  const startPath = config.registration ? '/inhouse-sign-up' : '/sign-in';

  return (
    <>
      <section className="mx-auto grid max-w-6xl items-center gap-14 px-4 pt-14 pb-20 sm:px-6 lg:grid-cols-[1.05fr_1fr] lg:pt-24">
        <div className="flex flex-col gap-6">
          <p className="w-fit rounded-full border border-line bg-surface px-3 py-1 text-xs font-medium text-muted shadow-soft">
            {t('home.eyebrow')}
          </p>
          <h1 className="font-display text-4xl leading-[1.05] font-semibold tracking-tight text-balance sm:text-6xl">
            {config.homepage.title ?? t('home.title')}
          </h1>
          <p className="max-w-xl text-lg leading-relaxed text-muted">
            {config.homepage.description ?? t('home.lead')}
          </p>
          <div className="flex flex-wrap gap-3">
            <Button asChild size="lg">
              <Link to={startPath}>
                {t('home.cta_primary')}
                <ArrowRight className="size-4" aria-hidden />
              </Link>
            </Button>
            <Button asChild size="lg" variant="secondary">
              <Link to="/demo">{t('home.cta_secondary')}</Link>
            </Button>
          </div>
        </div>
        <StudioIllustration />
      </section>

      <section aria-labelledby="features-title" className="border-y border-line bg-surface/60">
        <div className="mx-auto max-w-6xl px-4 py-20 sm:px-6">
          <h2
            id="features-title"
            className="max-w-2xl font-display text-3xl font-semibold tracking-tight sm:text-4xl"
          >
            {t('home.features_title')}
          </h2>
          <ul className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {FEATURES.map(({ key, icon: Icon }) => (
              <li key={key} className="rounded-2xl border border-line bg-surface p-6 shadow-soft">
                <span className="grid size-11 place-items-center rounded-xl bg-accent-soft text-accent">
                  <Icon className="size-5" aria-hidden />
                </span>
                <h3 className="mt-4 font-semibold">{t(`home.feature.${key}.title`)}</h3>
                <p className="mt-1.5 text-sm leading-relaxed text-muted">{t(`home.feature.${key}.body`)}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="steps-title" className="mx-auto max-w-6xl px-4 py-20 sm:px-6">
        <h2 id="steps-title" className="font-display text-3xl font-semibold tracking-tight sm:text-4xl">
          {t('home.steps_title')}
        </h2>
        <ol className="mt-10 grid gap-6 md:grid-cols-3">
          {STEPS.map((step, index) => (
            <li key={step} className="flex flex-col gap-2 border-t-2 border-accent pt-5">
              <span className="font-display text-sm font-semibold text-accent">
                {String(index + 1).padStart(2, '0')}
              </span>
              <h3 className="text-lg font-semibold">{t(`home.step.${step}.title`)}</h3>
              <p className="text-sm leading-relaxed text-muted">{t(`home.step.${step}.body`)}</p>
            </li>
          ))}
        </ol>
      </section>

      <section className="mx-auto max-w-6xl px-4 pb-24 sm:px-6">
        <div className="flex flex-col gap-6 rounded-3xl border border-line bg-studio p-8 text-on-studio sm:p-12 md:flex-row md:items-center md:justify-between">
          <div className="flex max-w-xl flex-col gap-3">
            <h2 className="font-display text-3xl font-semibold tracking-tight">{t('home.hosting_title')}</h2>
            <p className="text-sm leading-relaxed opacity-75">{t('home.hosting_body')}</p>
          </div>
          <code className="rounded-xl bg-on-studio/10 px-5 py-4 font-mono text-sm">
            <span className="opacity-50">$ </span>npm start
          </code>
        </div>
      </section>
    </>
  );
}
