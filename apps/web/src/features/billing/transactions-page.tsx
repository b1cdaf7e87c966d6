import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ReceiptText } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/ui/empty-state';
import { LoadState, Pager } from '../admin/users/admin-header';
import { billingKeys, fetchTransactions } from './billing-api';
import { BillingHeader } from './billing-header';
import { TransactionsTable } from './transactions-table';
import { useBillingUpdates } from './use-billing-updates';

/** /user/settings/transaction: every payment, top-up and charge of the account, newest first. */
export function TransactionsPage() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  useBillingUpdates();
  const transactions = useQuery({
    queryKey: billingKeys.transactions(page),
    queryFn: () => fetchTransactions(page),
    placeholderData: keepPreviousData,
  });

  return (
    <section className="flex flex-col gap-6">
      <BillingHeader title={t('pages.transactions')} lead={t('billing_ui.transactions_lead')} />
      {!transactions.data ? (
        <LoadState failed={transactions.isError} />
      ) : transactions.data.data.length === 0 ? (
        <EmptyState
          icon={ReceiptText}
          title={t('billing_ui.transactions_none_title')}
          body={t('billing_ui.transactions_none_body')}
        />
      ) : (
        <TransactionsTable transactions={transactions.data.data} dimmed={transactions.isPlaceholderData} />
      )}
      {transactions.data && <Pager paginate={transactions.data.meta.paginate} onPage={setPage} />}
    </section>
  );
}
