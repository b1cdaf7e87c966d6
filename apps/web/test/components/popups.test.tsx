import { en } from '@atelier/contracts';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { askConfirm, closePopup, showAlert, showSuccess } from '../../src/components/overlays/overlay-store';
import { Popups } from '../../src/components/overlays/popups';
import { createTestI18n } from '../render-app';

async function renderPopups(resources: Record<string, string>) {
  const i18n = await createTestI18n(resources);
  render(
    <I18nextProvider i18n={i18n}>
      <Popups />
    </I18nextProvider>,
  );
}

describe('popups', () => {
  afterEach(() => act(() => closePopup()));

  it('labels the alert button with alerts.error_confirm', async () => {
    await renderPopups({ ...en, 'alerts.error_confirm': 'Understood' });
    act(() => showAlert('Upload failed', 'The file is too large.'));
    expect(screen.getByRole('dialog')).toHaveTextContent('Upload failed');
    expect(screen.getByRole('button', { name: 'Understood' })).toBeInTheDocument();
  });

  it('falls back to "That\'s horrible!" when the translation is missing', async () => {
    const withoutLabel = Object.fromEntries(
      Object.entries(en).filter(([key]) => key !== 'alerts.error_confirm'),
    );
    await renderPopups(withoutLabel);
    act(() => showAlert('Upload failed'));
    expect(screen.getByRole('button', { name: "That's horrible!" })).toBeInTheDocument();
  });

  it('labels the success button with alerts.success_confirm and closes on click', async () => {
    await renderPopups({ ...en, 'alerts.success_confirm': 'Lovely' });
    act(() => showSuccess('Saved'));
    await userEvent.click(screen.getByRole('button', { name: 'Lovely' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('closes on Escape, and a dismissed confirm resolves to false', async () => {
    await renderPopups(en);
    let answer: Promise<boolean> = Promise.resolve(true);
    act(() => {
      answer = askConfirm({ title: 'Empty the trash?' });
    });
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await expect(answer).resolves.toBe(false);
  });

  it('resolves a confirm to true when confirmed', async () => {
    await renderPopups(en);
    let answer: Promise<boolean> = Promise.resolve(false);
    act(() => {
      answer = askConfirm({ title: 'Delete forever?', confirmLabel: 'Delete' });
    });
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await expect(answer).resolves.toBe(true);
  });
});
