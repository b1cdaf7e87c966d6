import { TOAST_DURATION_MS } from '@atelier/contracts';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pushToast } from '../../src/components/overlays/overlay-store';
import { Toasts } from '../../src/components/overlays/toasts';
import { createTestI18n } from '../render-app';

describe('toasts', () => {
  let i18n: Awaited<ReturnType<typeof createTestI18n>>;
  beforeEach(async () => {
    i18n = await createTestI18n();
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());
  const renderToasts = () =>
    render(
      <I18nextProvider i18n={i18n}>
        <Toasts />
      </I18nextProvider>,
    );

  it('dismisses itself after the toast duration and shows a draining progress bar', () => {
    renderToasts();
    act(() => {
      pushToast('success', 'Your trash was successfully cleared.');
    });
    const toast = screen.getByRole('status');
    expect(toast).toHaveTextContent('Your trash was successfully cleared.');
    expect(screen.getByTestId('toast-progress').style.animation).toContain(`${TOAST_DURATION_MS}ms`);

    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS - 1));
    expect(screen.getByRole('status')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('waits while the pointer or the keyboard is on it, so its buttons can be reached', () => {
    renderToasts();
    act(() => {
      pushToast('success', 'Moved 3 items.');
    });
    const toast = screen.getByRole('status');
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS - 1000));
    act(() => fireEvent.mouseEnter(toast));
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS * 3));
    expect(screen.getByRole('status')).toBeInTheDocument();
    expect(screen.getByTestId('toast-progress').style.animationPlayState).toBe('paused');
    act(() => fireEvent.mouseLeave(toast));
    act(() => screen.getByRole('button', { name: 'Close' }).focus());
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS * 3));
    expect(screen.getByRole('status')).toBeInTheDocument();
    // Let go, it leaves once the time it had left is over.
    act(() => screen.getByRole('button', { name: 'Close' }).blur());
    act(() => vi.advanceTimersByTime(999));
    expect(screen.getByRole('status')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('shows danger toasts as alerts and can be closed early', () => {
    renderToasts();
    act(() => {
      pushToast('danger', 'The file empty.txt can’t be uploaded');
    });
    expect(screen.getByRole('alert')).toHaveTextContent('empty.txt');
    act(() => screen.getByRole('button', { name: 'Close' }).click());
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
