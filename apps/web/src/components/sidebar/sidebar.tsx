import { BookOpen, LifeBuoy, LogOut, Moon, Sun } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useMatches } from 'react-router';
import { cn } from '../../lib/cn';
import { useConfig, type User } from '../../features/session/session-queries';
import { useLogout } from '../../features/session/use-logout';
import { useTheme } from '../../features/theme/theme-provider';
import { Avatar } from '../avatar';
import { RoleBadge } from '../role-badge';
import { Logo } from '../ui/logo';
import { FILE_MANAGER_VIEWS } from '../../features/files/file-manager-views';
import { RenderActivity } from '../../features/projects/render-activity';
import { sectionNavItemAt } from './section-nav';
import { activeSection, sidebarEntriesFor } from './sidebar-entries';

/** The guide shipped with Atelier (apps/web/scripts/user-guide.html); an admin may point elsewhere. */
const USER_GUIDE_PDF = '/docs/atelier-user-guide.pdf';

const footerItem =
  'flex w-full cursor-pointer items-center gap-3 rounded-xl px-3 py-2 text-sm text-muted transition-colors hover:bg-surface-2 hover:text-ink';

/**
 * The signed-in navigation: the user's card, their entries, then guides, support, theme and logout.
 * In the phone's drawer (`onNavigate` closes it) Files also lists the file manager's views, so each is
 * two taps away.
 */
export function Sidebar({ user, onNavigate }: { user: User; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const config = useConfig();
  const matches = useMatches();
  const { resolved, setMode } = useTheme();
  const logout = useLogout();
  const active = activeSection(matches);
  const entries = sidebarEntriesFor(user.attributes);
  const supportEmail = config.supportEmail ?? config.app.contactEmail;

  return (
    <div className="flex h-full flex-col gap-6 px-4 py-5">
      <Link to="/" className="px-2" onClick={onNavigate}>
        <Logo name={config.app.name} />
      </Link>

      <div className="flex items-center gap-3 rounded-2xl border border-line bg-surface p-3 shadow-soft">
        <Avatar person={user.attributes} size={40} />
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-semibold">{user.attributes.name || user.attributes.email}</p>
          <p className="truncate text-xs text-muted">{user.attributes.email}</p>
        </div>
        <RoleBadge role={user.attributes.role} />
      </div>

      <nav aria-label={t('sidebar.navigation')} className="flex-1 overflow-y-auto">
        <ul className="flex flex-col gap-0.5">
          {entries.map((item) => {
            const isActive = item.section === active;
            const Icon = item.icon;
            return (
              <li key={item.section}>
                <Link
                  to={item.to}
                  onClick={onNavigate}
                  aria-current={isActive ? 'page' : undefined}
                  className={cn(
                    'group flex items-center gap-3 rounded-xl px-3 py-2.5 text-sm font-medium transition-colors',
                    isActive ? 'bg-accent-soft text-ink' : 'text-muted hover:bg-surface-2 hover:text-ink',
                  )}
                >
                  <Icon
                    className={cn(
                      'size-[18px]',
                      isActive ? 'text-accent' : 'text-muted group-hover:text-ink',
                    )}
                    aria-hidden
                  />
                  {t(item.labelKey)}
                  {item.section === 'create' && <RenderActivity />}
                </Link>
                {onNavigate && item.section === 'files' && <FileManagerShortcuts onNavigate={onNavigate} />}
              </li>
            );
          })}
        </ul>
      </nav>

      <div className="flex flex-col gap-0.5 border-t border-line pt-4">
        <a
          href={config.userGuideUrl ?? USER_GUIDE_PDF}
          download
          className={footerItem}
          target="_blank"
          rel="noreferrer"
        >
          <BookOpen className="size-[18px]" aria-hidden />
          {t('sidebar.user_guides')}
        </a>
        {supportEmail && (
          <a href={`mailto:${supportEmail}`} className={footerItem}>
            <LifeBuoy className="size-[18px]" aria-hidden />
            {t('sidebar.support')}
          </a>
        )}
        <button
          type="button"
          className={footerItem}
          onClick={() => setMode(resolved === 'dark' ? 'light' : 'dark')}
          aria-label={t('theme.switch_to', { mode: t(resolved === 'dark' ? 'theme.light' : 'theme.dark') })}
        >
          {resolved === 'dark' ? (
            <Sun className="size-[18px]" aria-hidden />
          ) : (
            <Moon className="size-[18px]" aria-hidden />
          )}
          {t(resolved === 'dark' ? 'theme.light' : 'theme.dark')}
        </button>
        <button type="button" className={footerItem} onClick={() => void logout()}>
          <LogOut className="size-[18px]" aria-hidden />
          {t('auth.logout')}
        </button>
      </div>
    </div>
  );
}

/** The file manager's views as small links under Files, in the drawer. */
function FileManagerShortcuts({ onNavigate }: { onNavigate: () => void }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const open = sectionNavItemAt(FILE_MANAGER_VIEWS, pathname);
  return (
    <ul
      aria-label={t('file_manager.navigation')}
      className="mt-1 mb-2 ml-3 grid grid-cols-2 gap-x-1 gap-y-0.5"
    >
      {FILE_MANAGER_VIEWS.map((view) => {
        const Icon = view.icon;
        const current = view.id === open?.id;
        return (
          <li key={view.id} className="min-w-0">
            <Link
              to={view.to}
              onClick={onNavigate}
              aria-current={current ? 'page' : undefined}
              className={cn(
                'flex items-center gap-1.5 rounded-lg px-1.5 py-1.5 text-xs font-medium transition-colors',
                current ? 'bg-accent-soft text-ink' : 'text-muted hover:bg-surface-2 hover:text-ink',
              )}
            >
              <Icon className={cn('size-3.5 shrink-0', current && 'text-accent')} aria-hidden />
              <span className="truncate">{t(view.labelKey)}</span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
