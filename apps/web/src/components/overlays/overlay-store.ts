import { TOAST_DURATION_MS } from '@atelier/contracts/constants';
import { createStore } from '../../lib/create-store';

export type ToastKind = 'success' | 'danger';
/** A button of a toast: a second chance (Undo) or the way to what happened (Trash). */
export type ToastAction = { label: string } & ({ run: () => void } | { to: string });
export interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
  durationMs: number;
  actions?: readonly ToastAction[];
}

export interface MessagePopup {
  kind: 'alert' | 'success';
  title: string;
  message?: string;
}

export interface ConfirmPopup {
  kind: 'confirm';
  title: string;
  message?: string;
  confirmLabel?: string;
  danger?: boolean;
  resolve: (confirmed: boolean) => void;
}

interface OverlayState {
  popup: MessagePopup | ConfirmPopup | null;
  toasts: Toast[];
  /** Open spinner requests; the full-screen spinner shows while above zero. */
  busy: number;
  loggingOut: boolean;
  spotlight: boolean;
}

export const overlayStore = createStore<OverlayState>({
  popup: null,
  toasts: [],
  busy: 0,
  loggingOut: false,
  spotlight: false,
});

let nextToastId = 1;

export function showAlert(title: string, message?: string) {
  overlayStore.set((state) => ({ ...state, popup: { kind: 'alert', title, message } }));
}

export function showSuccess(title: string, message?: string) {
  overlayStore.set((state) => ({ ...state, popup: { kind: 'success', title, message } }));
}

/** Resolves true when the user confirms, false when they cancel or dismiss. */
export function askConfirm(options: Omit<ConfirmPopup, 'kind' | 'resolve'>): Promise<boolean> {
  return new Promise((resolve) => {
    overlayStore.set((state) => ({ ...state, popup: { kind: 'confirm', ...options, resolve } }));
  });
}

export function closePopup(confirmed = false) {
  const popup = overlayStore.get().popup;
  if (popup?.kind === 'confirm') popup.resolve(confirmed);
  overlayStore.set((state) => ({ ...state, popup: null }));
}

export function pushToast(kind: ToastKind, message: string, actions?: readonly ToastAction[]) {
  const toast: Toast = { id: nextToastId++, kind, message, durationMs: TOAST_DURATION_MS, actions };
  overlayStore.set((state) => ({ ...state, toasts: [...state.toasts, toast] }));
  return toast.id;
}

export function dismissToast(id: number) {
  overlayStore.set((state) => ({ ...state, toasts: state.toasts.filter((toast) => toast.id !== id) }));
}

/** Shows the full-screen spinner for the duration of a task. */
export async function withSpinner<T>(task: () => Promise<T>): Promise<T> {
  overlayStore.set((state) => ({ ...state, busy: state.busy + 1 }));
  try {
    return await task();
  } finally {
    overlayStore.set((state) => ({ ...state, busy: state.busy - 1 }));
  }
}

export function setLoggingOut(loggingOut: boolean) {
  overlayStore.set((state) => ({ ...state, loggingOut }));
}

export function setSpotlight(spotlight: boolean) {
  overlayStore.set((state) => ({ ...state, spotlight }));
}
