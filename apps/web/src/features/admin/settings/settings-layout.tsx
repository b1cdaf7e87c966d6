import { Cpu, Home, Megaphone, Palette, Server, SlidersHorizontal, UserRoundCheck } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet, useLocation } from 'react-router';
import { cn } from '../../../lib/cn';

/** The seven tabs of /admin/settings, in the description's order. */
export const SETTINGS_TABS = [
  { path: 'appearance', titleKey: 'pages.admin_settings_appearance', icon: Palette },
  { path: 'index', titleKey: 'pages.admin_settings_index', icon: Home },
  { path: 'environment', titleKey: 'pages.admin_settings_environment', icon: Server },
  { path: 'others', titleKey: 'pages.admin_settings_others', icon: SlidersHorizontal },
  { path: 'sign-in', titleKey: 'pages.admin_settings_sign_in', icon: UserRoundCheck },
  { path: 'adsense', titleKey: 'pages.admin_settings_adsense', icon: Megaphone },
  { path: 'server', titleKey: 'pages.admin_settings_server', icon: Cpu },
] as const;

/**
 * /admin/settings/*: the heading and the tab bar (it scrolls sideways on a phone and narrow screens,
 * and wraps beside the admin area's navigation column on wide ones), then the tab.
 */
export function SettingsLayout() {
  const { t } = useTranslation();
  const nav = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  // On a phone the bar scrolls sideways: keep the open tab in view (a deep link may open the last one).
  useEffect(() => {
    const bar = nav.current;
    const active = bar?.querySelector<HTMLElement>('[aria-current="page"]');
    if (bar && active) bar.scrollLeft = active.offsetLeft - (bar.clientWidth - active.offsetWidth) / 2;
  }, [pathname]);
  return (
    <section className="flex max-w-5xl min-w-0 flex-col gap-6">
      <header className="flex flex-col gap-1">
        <p className="text-xs font-semibold tracking-[0.14em] text-accent uppercase">{t('admin.area')}</p>
        <h1 className="font-display text-3xl font-semibold tracking-tight sm:text-4xl">
          {t('admin_settings.title')}
        </h1>
        <p className="text-sm text-muted">{t('admin_settings.lead')}</p>
      </header>
      <nav
        ref={nav}
        aria-label={t('admin_settings.tabs')}
        className="relative -mx-4 overflow-x-auto px-4 [scrollbar-width:none] sm:mx-0 sm:px-0 [&::-webkit-scrollbar]:hidden"
      >
        <ul className="flex w-max gap-1 rounded-2xl border border-line bg-surface p-1 shadow-soft xl:w-auto xl:flex-wrap">
          {SETTINGS_TABS.map(({ path, titleKey, icon: Icon }) => (
            <li key={path}>
              <NavLink
                to={`/admin/settings/${path}`}
                className={({ isActive }) =>
                  cn(
                    'flex h-9 items-center gap-2 rounded-xl px-3 text-sm font-medium whitespace-nowrap transition-colors',
                    isActive
                      ? 'bg-accent text-on-accent shadow-soft'
                      : 'text-muted hover:bg-surface-2 hover:text-ink',
                  )
                }
              >
                <Icon className="size-4" aria-hidden />
                {t(titleKey)}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Outlet />
    </section>
  );
}
