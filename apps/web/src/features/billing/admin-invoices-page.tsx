import { PaymentDriver, TransactionStatus, TransactionType } from '@atelier/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ReceiptText } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { AdminListPage } from './admin-list-page';
import { billingKeys, fetchAdminTransactions } from './billing-api';
import { DRIVER_NAMES, FilterSelect } from './billing-parts';
import { TransactionsTable } from './transactions-table';
import { useListFilters } from './use-list-filters';

const FILTERS = ['type', 'status', 'driver'] as const;

/** /admin/invoices: every transaction of the instance, searchable, filtered by type, status and provider. */
export function AdminInvoicesPage() {
  const { t } = useTranslation();
  const { filters, page, search, typed, setTyped, update } = useListFilters(FILTERS);
  const query = {
    page,
    search,
    type: TransactionType.options.find((type) => type === filters.type),
    status: TransactionStatus.options.find((status) => status === filters.status),
    driver: filters.driver || undefined,
  };
  const transactions = useQuery({
    queryKey: billingKeys.adminTransactions(query),
    queryFn: () => fetchAdminTransactions(query),
    placeholderData: keepPreviousData,
  });
  const filtered = search !== '' || FILTERS.some((key) => filters[key] !== '');

  return (
    <AdminListPage
      title={t('pages.admin_invoices')}
      lead={t('billing_ui.invoices_lead')}
      searchPlaceholder={t('billing_ui.search_transactions')}
      typed={typed}
      onTyped={setTyped}
      toolbar="lg"
      list={transactions}
      filtered={filtered}
      onPage={(next) => update({ page: next })}
      emptyIcon={ReceiptText}
      emptyTitle="billing_ui.invoices_none_title"
      emptyBody="billing_ui.invoices_none_body"
      filters={
        <div className="grid gap-2 sm:grid-cols-3 lg:flex">
          <FilterSelect
            label={t('billing_ui.column_type')}
            value={filters.type}
            onChange={(event) => update({ type: event.target.value })}
            options={[
              { value: '', label: t('billing_ui.type_all') },
              ...TransactionType.options.map((type) => ({
                value: type,
                label: t(`billing_ui.transaction_type.${type}`),
              })),
            ]}
          />
          <FilterSelect
            label={t('billing_ui.column_status')}
            value={filters.status}
            onChange={(event) => update({ status: event.target.value })}
            options={[
              { value: '', label: t('billing_ui.status_all') },
              ...TransactionStatus.options.map((status) => ({
                value: status,
                label: t(`billing_ui.transaction_status.${status}`),
              })),
            ]}
          />
          <FilterSelect
            label={t('billing_ui.column_driver')}
            value={filters.driver}
            onChange={(event) => update({ driver: event.target.value })}
            options={[
              { value: '', label: t('billing_ui.driver_all') },
              ...PaymentDriver.options.map((driver) => ({ value: driver, label: DRIVER_NAMES[driver] })),
              { value: 'admin', label: t('billing_ui.driver_admin') },
            ]}
          />
        </div>
      }
    >
      {(items, dimmed) => <TransactionsTable transactions={items} admin dimmed={dimmed} />}
    </AdminListPage>
  );
}
