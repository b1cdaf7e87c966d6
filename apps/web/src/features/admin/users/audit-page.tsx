import type { AuditEntry } from '@atelier/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ScrollText } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { AdminHeader, LoadState, Pager } from './admin-header';
import { adminKeys, fetchAudit } from './admin-users-api';
import { formatDateTime } from '../../../lib/format-date';

/** A detail's value as a reader sees it; null is the instance default (a capacity). */
function valueText(value: unknown, t: (key: string) => string): string {
  return value === null || value === undefined ? t('admin_users.audit_default') : String(value);
}

/** What changed, one line per field: `Role: user → admin`. */
function DetailLines({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation();
  const lines = Object.entries(entry.details).map(([field, value]) => {
    const label = t(`admin_users.audit_field.${field}`);
    if (value && typeof value === 'object' && 'from' in value && 'to' in value)
      return `${label}: ${valueText(value.from, t)} → ${valueText(value.to, t)}`;
    return `${label}: ${valueText(value, t)}`;
  });
  if (lines.length === 0) return null;
  return (
    <ul className="mt-1 flex flex-col gap-0.5 text-xs text-muted">
      {lines.map((line) => (
        <li key={line} className="break-words">
          {line}
        </li>
      ))}
    </ul>
  );
}

/** /admin/audit: every change an administrator made to an account, newest first. */
export function AuditPage() {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const audit = useQuery({
    queryKey: adminKeys.audit(page),
    queryFn: () => fetchAudit(page),
    placeholderData: keepPreviousData,
  });
  const paginate = audit.data?.meta.paginate;
  const when = (iso: string) => formatDateTime(iso, i18n.language);
  const go = (next: number) => setParams(next > 1 ? { page: String(next) } : {});

  return (
    <section className="flex flex-col gap-6">
      <AdminHeader title={t('pages.admin_audit')} lead={t('admin_users.audit_lead')} />
      {!audit.data ? (
        <LoadState failed={audit.isError} />
      ) : audit.data.data.length === 0 ? (
        <EmptyState
          icon={ScrollText}
          title={t('admin_users.audit_empty_title')}
          body={t('admin_users.audit_empty_body')}
        />
      ) : (
        <Card>
          <ol className="divide-y divide-line" data-testid="audit-log">
            {audit.data.data.map((entry) => (
              <li
                key={entry.id}
                data-testid="audit-entry"
                className="flex flex-col gap-1 px-5 py-4 sm:flex-row sm:gap-6"
              >
                <time
                  dateTime={entry.created_at}
                  className="shrink-0 text-xs text-muted tabular-nums sm:w-40 sm:pt-0.5"
                >
                  {when(entry.created_at)}
                </time>
                <div className="min-w-0 flex-1 text-sm">
                  <p>
                    <span className="font-semibold">{entry.actor.name}</span>{' '}
                    {t(`admin_users.audit_action.${entry.action}`)}{' '}
                    {entry.target.id && entry.action !== 'user.deleted' ? (
                      <Link
                        to={`/admin/user/${entry.target.id}/details`}
                        className="font-semibold text-accent hover:underline"
                      >
                        {entry.target.name}
                      </Link>
                    ) : (
                      <span className="font-semibold">{entry.target.name}</span>
                    )}
                  </p>
                  <DetailLines entry={entry} />
                </div>
              </li>
            ))}
          </ol>
        </Card>
      )}
      {paginate && <Pager paginate={paginate} onPage={go} />}
    </section>
  );
}
