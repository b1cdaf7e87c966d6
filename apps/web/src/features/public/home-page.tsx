import { ArrowRight, FolderOpen, Inbox, Link2, Mail } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { homePathFor, useConfig, useSession } from '../session/session-queries';

/** What a client of the studio comes for, each said in a line. */
const VISITS = [
  { key: 'shared', icon: Link2 },
  { key: 'request', icon: Inbox },
  { key: 'account', icon: FolderOpen },
] as const;

/**
 * `/`: the studio's own front door, in its name, logo, colour and words (admin settings), with the
 * way in; when the admin turned the homepage off, the sign-in page instead.
 */
export function HomePage() {
  const { t } = useTranslation();
  const { app, homepage, allowHomepage, registration } = useConfig();
  const { user } = useSession();
  if (!allowHomepage) return <Navigate to="/sign-in" replace />;
  const lead = homepage.description ?? (app.description || null);

  return (
    <section className="mx-auto grid w-full max-w-6xl items-center gap-12 px-4 pt-12 pb-20 sm:px-6 lg:grid-cols-[1.15fr_1fr] lg:gap-16 lg:pt-24">
      <div className="flex min-w-0 flex-col gap-6">
        <h1 className="font-display text-4xl leading-[1.05] font-semibold tracking-tight text-balance sm:text-6xl">
          {homepage.title ?? t('home.welcome', { name: app.name })}
        </h1>
        {lead && <p className="max-w-xl text-lg leading-relaxed whitespace-pre-line text-muted">{lead}</p>}
        <div className="flex flex-wrap gap-3">
          {user ? (
            <Button asChild size="lg">
              <Link to={homePathFor(user.attributes)}>
                {t('public.open_app', { name: app.name })}
                <ArrowRight className="size-4" aria-hidden />
              </Link>
            </Button>
          ) : (
            <>
              <Button asChild size="lg">
                <Link to="/sign-in">
                  {t('auth.sign_in')}
                  <ArrowRight className="size-4" aria-hidden />
                </Link>
              </Button>
              {registration && (
                <Button asChild size="lg" variant="secondary">
                  <Link to="/inhouse-sign-up">{t('home.create_account')}</Link>
                </Button>
              )}
            </>
          )}
        </div>
        {app.contactEmail && (
          <p className="flex items-center gap-2 text-sm text-muted">
            <Mail className="size-4 shrink-0" aria-hidden />
            <span>
              {t('home.questions')}{' '}
              <a
                href={`mailto:${app.contactEmail}`}
                className="font-medium break-all text-accent underline-offset-2 hover:underline"
              >
                {app.contactEmail}
              </a>
            </span>
          </p>
        )}
      </div>

      <aside
        aria-labelledby="visits-title"
        className="flex flex-col gap-5 rounded-3xl border border-line bg-surface p-6 shadow-soft sm:p-8"
      >
        <h2 id="visits-title" className="font-display text-2xl font-semibold tracking-tight">
          {t('home.visits_title')}
        </h2>
        <ul className="flex flex-col gap-5">
          {VISITS.map(({ key, icon: Icon }) => (
            <li key={key} className="flex gap-4">
              <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-accent-soft text-accent">
                <Icon className="size-5" aria-hidden />
              </span>
              <div className="flex min-w-0 flex-col gap-1">
                <h3 className="font-semibold">{t(`home.visit.${key}.title`, { name: app.name })}</h3>
                <p className="text-sm leading-relaxed text-muted">
                  {t(`home.visit.${key}.body`, { name: app.name })}
                </p>
              </div>
            </li>
          ))}
        </ul>
      </aside>
    </section>
  );
}
