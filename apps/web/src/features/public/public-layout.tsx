import { Menu } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, Outlet } from 'react-router';
import { ThemeMenu } from '../../components/theme-menu';
import { Button } from '../../components/ui/button';
import { Logo } from '../../components/ui/logo';
import { cn } from '../../lib/cn';
import { homePathFor, useConfig, useSession } from '../session/session-queries';
import { useLogout } from '../session/use-logout';
import { menuContentClass, menuItemClass } from '../../components/ui/menu';

const LEGAL_PAGES = ['terms-of-service', 'privacy-policy', 'cookie-policy'] as const;
const PUBLIC_LINKS = [
  { to: '/demo', labelKey: 'public.nav_demo' },
  { to: '/contact-us', labelKey: 'public.nav_contact' },
] as const;

/** Header and footer of the marketing and content pages. */
export function PublicLayout() {
  const { t } = useTranslation();
  const config = useConfig();
  const { user } = useSession();
  const logout = useLogout();
  // In maintenance everything but this page sends people back to it: offer no way round in circles,
  // only the administrators' sign-in (and a way out for someone signed in).
  const closed = config.maintenance && user?.attributes.role !== 'admin';
  const links = closed ? [] : PUBLIC_LINKS;
  const navLink = ({ isActive }: { isActive: boolean }) =>
    cn('rounded-lg px-3 py-2 text-sm transition-colors hover:text-ink', isActive ? 'text-ink' : 'text-muted');

  return (
    <div className="flex min-h-dvh flex-col">
      <header className="sticky top-0 z-30 border-b border-line/70 bg-paper/80 backdrop-blur-md">
        <div className="mx-auto flex h-16 max-w-6xl items-center gap-2 px-4 sm:px-6">
          <Link to="/" className="mr-4 flex min-w-0">
            {/* A wide logo is narrowed on a phone, where the header's buttons need the room. */}
            <Logo name={config.app.name} className="[&_img]:max-w-32 sm:[&_img]:max-w-48" />
          </Link>
          <nav aria-label={t('public.navigation')} className="hidden items-center md:flex">
            {links.map(({ to, labelKey }) => (
              <NavLink key={to} to={to} className={navLink}>
                {t(labelKey)}
              </NavLink>
            ))}
          </nav>
          <div className="ml-auto flex items-center gap-1.5">
            {links.length > 0 && (
              <DropdownMenu.Root>
                <DropdownMenu.Trigger
                  className="grid size-10 cursor-pointer place-items-center rounded-xl text-muted hover:bg-surface-2 hover:text-ink md:hidden"
                  aria-label={t('public.navigation')}
                >
                  <Menu className="size-[18px]" aria-hidden />
                </DropdownMenu.Trigger>
                <DropdownMenu.Portal>
                  <DropdownMenu.Content align="end" sideOffset={8} className={menuContentClass}>
                    {links.map(({ to, labelKey }) => (
                      <DropdownMenu.Item key={to} asChild>
                        <Link to={to} className={menuItemClass}>
                          {t(labelKey)}
                        </Link>
                      </DropdownMenu.Item>
                    ))}
                  </DropdownMenu.Content>
                </DropdownMenu.Portal>
              </DropdownMenu.Root>
            )}
            <ThemeMenu />
            {closed ? (
              user ? (
                <Button size="sm" variant="ghost" onClick={() => void logout()}>
                  {t('maintenance.sign_out')}
                </Button>
              ) : (
                <Button asChild size="sm" variant="ghost">
                  <Link to="/sign-in">{t('maintenance.admin_sign_in')}</Link>
                </Button>
              )
            ) : user ? (
              <Button asChild size="sm">
                <Link to={homePathFor(user.attributes)}>
                  {t('public.open_app', { name: config.app.name })}
                </Link>
              </Button>
            ) : (
              <>
                <Button asChild size="sm" variant="ghost">
                  <Link to="/sign-in">{t('auth.sign_in')}</Link>
                </Button>
                {config.registration && (
                  <Button asChild size="sm" className="hidden sm:inline-flex">
                    <Link to="/inhouse-sign-up">{t('public.get_started')}</Link>
                  </Button>
                )}
              </>
            )}
          </div>
        </div>
      </header>

      <main className="flex-1">
        <Outlet />
      </main>

      <footer className="border-t border-line">
        <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-10 sm:flex-row sm:items-start sm:justify-between sm:px-6">
          <div className="flex max-w-xs flex-col gap-3">
            <Logo name={config.app.name} />
            {config.app.description && (
              <p className="text-sm leading-relaxed text-muted">{config.app.description}</p>
            )}
          </div>
          <nav
            aria-label={t('public.footer_navigation', { name: config.app.name })}
            className="flex flex-wrap gap-x-6 gap-y-2 text-sm"
          >
            {links.map(({ to, labelKey }) => (
              <Link key={to} to={to} className="text-muted hover:text-ink">
                {t(labelKey)}
              </Link>
            ))}
            {(closed ? [] : LEGAL_PAGES).map((slug) => (
              <Link key={slug} to={`/page/${slug}`} className="text-muted hover:text-ink">
                {t(`public.legal.${slug}`)}
              </Link>
            ))}
          </nav>
        </div>
        <p className="mx-auto max-w-6xl px-4 pb-8 text-xs text-muted sm:px-6">
          {t('public.copyright', { year: new Date().getFullYear(), name: config.app.name })}
        </p>
      </footer>
    </div>
  );
}
