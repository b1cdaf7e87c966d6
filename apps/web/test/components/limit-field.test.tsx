import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { LimitField } from '../../src/components/ui/limit-field';
import { createTestI18n } from '../render-app';

/** The field in a form of one value; `sent` records each value the form would send. */
function Form({ initial, sent }: { initial: string; sent: (value: string) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <LimitField
      label="Team members"
      unlimited={-1}
      fallback="5"
      step={1}
      value={value}
      onChange={(event) => {
        setValue(event.target.value);
        sent(event.target.value);
      }}
    />
  );
}

/** Renders the form; answers the last value it would send. */
async function renderForm(initial: string) {
  let last = initial;
  render(
    <I18nextProvider i18n={await createTestI18n()}>
      <Form initial={initial} sent={(value) => (last = value)} />
    </I18nextProvider>,
  );
  return () => last;
}

describe('a limit with an Unlimited switch', () => {
  it('shows the API’s sentinel as Unlimited, not as -1, and gives a number back when turned off', async () => {
    const user = userEvent.setup();
    const sent = await renderForm('-1');
    const number = screen.getByRole('spinbutton', { name: 'Team members' });
    const unlimited = screen.getByRole('switch', { name: 'Team members: unlimited' });
    expect(unlimited).toBeChecked();
    expect(number).toBeDisabled();
    expect(number).toHaveValue(null);
    expect(number).toHaveAttribute('placeholder', 'Unlimited');

    await user.click(unlimited);
    expect(number).toBeEnabled();
    expect(number).toHaveValue(5);
    await user.clear(number);
    await user.type(number, '12');
    expect(sent()).toBe('12');
  });

  it('sends the sentinel once switched to Unlimited', async () => {
    const user = userEvent.setup();
    const sent = await renderForm('3');
    expect(screen.getByRole('spinbutton', { name: 'Team members' })).toHaveValue(3);
    await user.click(screen.getByRole('switch', { name: 'Team members: unlimited' }));
    expect(sent()).toBe('-1');
    expect(screen.getByRole('spinbutton', { name: 'Team members' })).toBeDisabled();
  });
});
