import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button';
import { InputField } from '../../components/ui/field';
import { StepActions, StepHeader } from './step-header';
import { tokenFromInput } from './setup-token';

/** Asks for the setup link the server printed, when the wizard was opened without it. */
export function SetupTokenForm({ rejected, onToken }: { rejected: boolean; onToken(token: string): void }) {
  const { t } = useTranslation();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string>();

  const submit = (event: { preventDefault(): void }) => {
    event.preventDefault();
    const token = tokenFromInput(value);
    if (token) onToken(token);
    else setError(t('validation.required'));
  };

  return (
    <form onSubmit={submit} noValidate>
      <StepHeader title={t('setup.token.title')} lead={t('setup.token.lead')} />
      {rejected && (
        <p role="alert" className="mb-5 rounded-xl bg-danger-soft px-4 py-3 text-sm text-danger">
          {t('setup.token.rejected')}
        </p>
      )}
      <InputField
        label={t('setup.token.label')}
        hint={t('setup.token.hint')}
        autoComplete="off"
        spellCheck={false}
        value={value}
        onChange={(event) => setValue(event.target.value)}
        error={error}
      />
      <StepActions>
        <Button type="submit">{t('setup.continue')}</Button>
      </StepActions>
    </form>
  );
}
