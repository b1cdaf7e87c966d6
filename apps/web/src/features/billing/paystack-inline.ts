import type { CheckoutAnswer } from '@atelier/contracts';

/**
 * Paystack's inline form is Paystack's own script; it is loaded only when the person asks for it,
 * never with the page, so no remote code runs for anyone who does not pay with Paystack.
 */
export const PAYSTACK_SCRIPT_URL = 'https://js.paystack.co/v2/inline.js';

interface PaystackTransaction {
  key: string;
  email: string;
  amount: number;
  currency?: string;
  reference: string;
  planCode?: string;
  metadata?: Record<string, string>;
  onSuccess: (transaction: { reference: string }) => void;
  onCancel: () => void;
  onError?: (error: { message: string }) => void;
}

interface PaystackPopup {
  newTransaction(options: PaystackTransaction): void;
}

declare global {
  interface Window {
    PaystackPop?: new () => PaystackPopup;
  }
}

let loading: Promise<void> | null = null;

/** Adds the script once; rejects when the browser refuses it (the instance's CSP, no network). */
function loadScript(): Promise<void> {
  if (window.PaystackPop) return Promise.resolve();
  loading ??= new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = PAYSTACK_SCRIPT_URL;
    script.async = true;
    script.onload = () => (window.PaystackPop ? resolve() : reject(new Error('PaystackPop missing')));
    script.onerror = () => {
      script.remove();
      loading = null;
      reject(new Error('Paystack script refused'));
    };
    document.head.append(script);
  });
  return loading;
}

/** Opens Paystack's form for the server's reference; resolves with how it ended. */
export async function openPaystack(
  answer: CheckoutAnswer['data'],
  metadata: Record<string, string>,
): Promise<'paid' | 'cancelled'> {
  await loadScript();
  const Popup = window.PaystackPop!;
  return new Promise((resolve, reject) => {
    new Popup().newTransaction({
      key: answer.public_key ?? '',
      email: answer.email ?? '',
      amount: answer.amount_subunit ?? 0,
      currency: answer.currency,
      reference: answer.reference,
      planCode: answer.plan ?? undefined,
      metadata,
      onSuccess: () => resolve('paid'),
      onCancel: () => resolve('cancelled'),
      onError: (error) => reject(new Error(error.message)),
    });
  });
}
