import { Laptop, Smartphone, TerminalSquare, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { useConfig, useSession } from '../session/session-queries';
import { CopyLinkButton } from '../sharing/copy-link';

/** The Nextcloud apps sign in through the browser (Login Flow v2); ownCloud's with an app password. */
const DESKTOP_STEPS = [
  'sync_clients.page.desktop_install',
  'sync_clients.page.desktop_address',
  'sync_clients.page.desktop_browser',
  'sync_clients.page.desktop_folder',
];
const MOBILE_STEPS = [
  'sync_clients.page.mobile_install',
  'sync_clients.page.mobile_address',
  'sync_clients.page.mobile_browser',
  'sync_clients.page.mobile_folder',
];
const OWNCLOUD_STEPS = ['sync_clients.page.owncloud_password', 'sync_clients.page.owncloud_sign_in'];

/** /user/settings/sync-clients: how to connect the Nextcloud and ownCloud apps and rclone, with the address to enter. */
export function SyncClientsPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const config = useConfig();
  const server = window.location.origin;
  const email = user?.attributes.email ?? '';
  const rclone = [
    'rclone config create atelier webdav',
    `url=${server}/remote.php/dav/files/${email}/`,
    'vendor=nextcloud',
    `user=${email}`,
    `pass=$(rclone obscure '${t('sync_clients.page.rclone_password_placeholder')}')`,
  ].join(' \\\n  ');

  return (
    <section className="flex max-w-3xl flex-col gap-6">
      <header className="flex flex-col gap-1">
        <p className="text-xs font-semibold tracking-[0.14em] text-accent uppercase">{t('profile.area')}</p>
        <h1 className="font-display text-3xl font-semibold tracking-tight sm:text-4xl">
          {t('sync_clients.page.title')}
        </h1>
        <p className="text-sm text-muted">{t('sync_clients.page.lead', { app: config.app.name })}</p>
      </header>

      <Card className="flex flex-col gap-3 p-6 sm:p-8">
        <h2 className="font-display text-xl font-semibold">{t('sync_clients.page.server_title')}</h2>
        <p className="text-sm text-muted">{t('sync_clients.page.server_lead')}</p>
        <div className="flex flex-col gap-2 sm:flex-row">
          <code className="flex h-11 min-w-0 items-center truncate rounded-xl border border-line bg-surface-2 px-3.5 font-mono text-[15px] text-ink sm:flex-1">
            {server}
          </code>
          <CopyLinkButton link={server} className="h-11" />
        </div>
      </Card>

      <ClientCard
        icon={Laptop}
        title={t('sync_clients.page.desktop_title')}
        lead={t('sync_clients.page.desktop_lead')}
      >
        <Steps keys={DESKTOP_STEPS} />
      </ClientCard>

      <ClientCard
        icon={Smartphone}
        title={t('sync_clients.page.mobile_title')}
        lead={t('sync_clients.page.mobile_lead')}
      >
        <Steps keys={MOBILE_STEPS} />
      </ClientCard>

      <ClientCard
        icon={Laptop}
        title={t('sync_clients.page.owncloud_title')}
        lead={t('sync_clients.page.owncloud_lead')}
      >
        <Steps keys={OWNCLOUD_STEPS} />
        <Credentials server={server} email={email} />
      </ClientCard>

      <ClientCard
        icon={TerminalSquare}
        title={t('sync_clients.page.rclone_title')}
        lead={t('sync_clients.page.rclone_lead')}
      >
        <pre className="overflow-x-auto rounded-xl bg-surface-2 px-4 py-3 font-mono text-[13px] leading-relaxed text-ink">
          {rclone}
        </pre>
        <p className="text-sm text-muted">{t('sync_clients.page.rclone_hint')}</p>
      </ClientCard>

      <Card className="flex flex-col gap-3 p-6 sm:flex-row sm:items-center sm:justify-between sm:p-8">
        <p className="text-sm text-muted">{t('sync_clients.page.revoke_hint')}</p>
        <Button asChild variant="secondary" className="shrink-0">
          <Link to="/user/profile">{t('sync_clients.page.app_passwords')}</Link>
        </Button>
      </Card>
    </section>
  );
}

function ClientCard({
  icon: Icon,
  title,
  lead,
  children,
}: {
  icon: LucideIcon;
  title: string;
  lead: string;
  children: ReactNode;
}) {
  return (
    <Card className="flex flex-col gap-5 p-6 sm:p-8">
      <div className="flex items-start gap-4">
        <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-accent-soft text-accent">
          <Icon className="size-5" aria-hidden />
        </span>
        <div className="flex min-w-0 flex-col gap-1">
          <h2 className="font-display text-xl font-semibold">{title}</h2>
          <p className="text-sm text-muted">{lead}</p>
        </div>
      </div>
      {children}
    </Card>
  );
}

/** Numbered steps; `<b>` in a step's text marks what the person clicks or types. */
function Steps({ keys }: { keys: string[] }) {
  return (
    <ol className="flex flex-col gap-3">
      {keys.map((key, index) => (
        <li key={key} className="flex gap-3 text-sm leading-relaxed text-ink">
          <span className="grid size-6 shrink-0 place-items-center rounded-full bg-surface-2 text-xs font-semibold text-muted">
            {index + 1}
          </span>
          <span className="min-w-0">
            <Trans i18nKey={key} components={{ b: <strong className="font-semibold" /> }} />
          </span>
        </li>
      ))}
    </ol>
  );
}

function Credentials({ server, email }: { server: string; email: string }) {
  const { t } = useTranslation();
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 rounded-xl bg-surface-2 px-4 py-3 text-sm">
      <dt className="text-muted">{t('sync_clients.page.server_address')}</dt>
      <dd className="min-w-0 font-mono text-[13px] break-all">{server}</dd>
      <dt className="text-muted">{t('app_passwords.user_name')}</dt>
      <dd className="min-w-0 font-mono text-[13px] break-all">{email}</dd>
      <dt className="text-muted">{t('app_passwords.password')}</dt>
      <dd className="min-w-0 text-[13px]">{t('sync_clients.page.an_app_password')}</dd>
    </dl>
  );
}
