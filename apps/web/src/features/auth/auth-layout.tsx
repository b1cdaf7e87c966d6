import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router';
import { ThemeMenu } from '../../components/theme-menu';
import { Logo } from '../../components/ui/logo';
import { useConfig } from '../session/session-queries';

/** Sign-in and friends: the form on the right, the instance's mood on the left (wide screens). */
export function AuthLayout() {
  const { t } = useTranslation();
  const config = useConfig();
  return (
    <div className="grid min-h-dvh lg:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]">
      <aside className="relative hidden overflow-hidden bg-studio p-12 text-on-studio lg:flex border-r border-line lg:flex-col lg:justify-between">
        <div
          aria-hidden
          className="absolute -right-24 -bottom-24 size-[28rem] rounded-full border-[3rem] border-accent/25"
        />
        <div aria-hidden className="absolute top-1/3 -right-10 h-px w-2/3 rotate-[-18deg] bg-accent/40" />
        {/* The panel is dark in both themes: the logo for the dark theme. */}
        <Link to="/" className="relative">
          <Logo name={config.app.name} theme="dark" />
        </Link>
        <div className="relative flex max-w-md flex-col gap-4">
          <p className="font-display text-3xl leading-snug font-medium text-balance">
            {t('auth.aside_quote')}
          </p>
          <p className="text-sm opacity-65">{config.app.description || t('auth.aside_caption')}</p>
        </div>
      </aside>
      <div className="flex flex-col">
        <header className="flex items-center justify-between px-4 py-4 sm:px-8">
          <Link to="/" className="lg:invisible">
            <Logo name={config.app.name} />
          </Link>
          <ThemeMenu />
        </header>
        <main className="flex flex-1 items-start justify-center px-4 pt-6 pb-16 sm:items-center sm:px-8">
          <div className="w-full max-w-md">
            <Outlet />
          </div>
        </main>
      </div>
    </div>
  );
}
