import type { AdminTransactionItem, TransactionItem } from '@atelier/contracts';
import { Download } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { cn } from '../../lib/cn';
import { formatDate } from '../../lib/format-date';
import { driverName, TransactionStatusBadge } from './billing-parts';
import { invoiceUrl } from './billing-api';
import { formatMoney } from './format-money';

const head = 'px-3 py-3';

/**
 * Transactions as a table on a desktop and as stacked cards on a phone (the same rows, laid out
 * by breakpoint). The admin's rows name whose each one is and its reference.
 */
export function TransactionsTable({
  transactions,
  admin = false,
  dimmed = false,
}: {
  transactions: (TransactionItem | AdminTransactionItem)[];
  admin?: boolean;
  dimmed?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Card className={cn('overflow-hidden transition-opacity', dimmed && 'opacity-60')}>
      <table className="w-full text-sm" data-testid="transactions-table">
        <thead className="hidden border-b border-line bg-surface-2/60 text-left text-xs font-semibold tracking-wide text-muted uppercase md:table-header-group">
          <tr>
            {admin && <th className="px-5 py-3">{t('billing_ui.column_user')}</th>}
            <th className={admin ? head : 'px-5 py-3'}>{t('billing_ui.column_note')}</th>
            <th className={head}>{t('billing_ui.column_status')}</th>
            <th className={head}>{t('billing_ui.column_type')}</th>
            <th className={cn(head, 'text-right')}>{t('billing_ui.column_amount')}</th>
            <th className={head}>{t('billing_ui.column_date')}</th>
            <th className={head}>{t('billing_ui.column_driver')}</th>
            <th className="px-5 py-3 text-right">
              <span className="sr-only">{t('billing_ui.column_actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {transactions.map((transaction) => (
            <TransactionRow key={transaction.id} transaction={transaction} admin={admin} />
          ))}
        </tbody>
      </table>
    </Card>
  );
}

function TransactionRow({
  transaction,
  admin,
}: {
  transaction: TransactionItem | AdminTransactionItem;
  admin: boolean;
}) {
  const { t, i18n } = useTranslation();
  const user = 'user' in transaction ? transaction.user : null;
  // An admin's credit has no provider: it says who gave it.
  const driver =
    transaction.driver === 'admin' ? t('billing_ui.driver_admin') : driverName(transaction.driver);
  // Money that came in is marked as such only once it did; a failed top-up added nothing.
  const received =
    transaction.type === 'credit' &&
    (transaction.status === 'completed' || transaction.status === 'successful');
  const settled = transaction.status === 'completed' || transaction.status === 'successful';
  return (
    <tr
      data-testid="transaction-row"
      className="grid grid-cols-[1fr_auto] items-center gap-x-3 gap-y-1 px-4 py-3.5 md:table-row md:px-0"
    >
      {admin && (
        <td className="col-span-2 min-w-0 md:px-5 md:py-3">
          {user?.id ? (
            <Link to={`/admin/user/${user.id}/subscription`} className="font-semibold hover:underline">
              {user.name}
            </Link>
          ) : (
            <span className="font-semibold">{user?.name}</span>
          )}
          <p className="truncate text-xs text-muted">{user?.email}</p>
        </td>
      )}
      <td className={cn('min-w-0 md:py-3', admin ? 'md:px-3' : 'md:px-5')}>
        <p className="truncate font-medium md:max-w-72" title={transaction.note}>
          {transaction.note}
        </p>
        {admin && (
          <p className="truncate font-mono text-xs text-muted" title={transaction.reference}>
            {transaction.reference}
          </p>
        )}
      </td>
      <td className="row-span-1 text-right md:px-3 md:py-3 md:text-left">
        <TransactionStatusBadge status={transaction.status} />
      </td>
      <td className="text-xs text-muted md:px-3 md:py-3 md:text-sm md:text-ink">
        {t(`billing_ui.transaction_type.${transaction.type}`)}
      </td>
      <td
        className={cn(
          'text-right font-semibold tabular-nums md:px-3 md:py-3',
          received && 'text-success',
          !settled && 'text-muted line-through decoration-1',
        )}
      >
        {received ? '+' : ''}
        {formatMoney(transaction.amount, transaction.currency, i18n.language)}
      </td>
      <td className="text-xs text-muted md:px-3 md:py-3 md:text-sm md:whitespace-nowrap md:text-ink">
        {formatDate(transaction.created_at, i18n.language)}
        <span className="md:hidden"> · {driver}</span>
      </td>
      <td className="hidden md:table-cell md:px-3 md:py-3">{driver}</td>
      <td className="text-right md:px-5 md:py-2">
        {transaction.invoice && (
          <Button asChild size="sm" variant="ghost">
            <a href={invoiceUrl(transaction.id, admin)} download>
              <Download className="size-4" aria-hidden />
              {t('billing_ui.invoice')}
            </a>
          </Button>
        )}
      </td>
    </tr>
  );
}
