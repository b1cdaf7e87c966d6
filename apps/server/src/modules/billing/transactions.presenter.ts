import { fromMinorUnits, type AdminTransactionItem, type TransactionItem } from '@atelier/contracts';
import type { TransactionRow } from './billing.tables';

/** A completed charge has an invoice; credits, withdrawals and failed charges do not. */
export function hasInvoice(row: Pick<TransactionRow, 'type' | 'status'>): boolean {
  return row.type === 'charge' && (row.status === 'completed' || row.status === 'successful');
}

export function presentTransaction(row: TransactionRow): TransactionItem {
  return {
    id: row.id,
    note: row.note,
    status: row.status,
    type: row.type,
    amount: fromMinorUnits(Number(row.amount_minor), row.currency),
    currency: row.currency,
    driver: row.driver,
    reference: row.reference,
    created_at: new Date(row.created_at).toISOString(),
    invoice: hasInvoice(row),
  };
}

export function presentAdminTransaction(row: TransactionRow): AdminTransactionItem {
  return {
    ...presentTransaction(row),
    user: { id: row.user_id, name: row.user_name, email: row.user_email },
  };
}
