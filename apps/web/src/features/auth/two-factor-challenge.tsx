import type { UserResource } from '@atelier/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button';
import { InputField } from '../../components/ui/field';
import { api } from '../../lib/api-client';
import { useApiForm, validateWith } from '../../lib/use-api-form';
import { AuthHeading, FormError } from './auth-heading';
import { useSignedIn } from './use-signed-in';

/**
 * The second step of signing in to an account with two-factor authentication, after a password
 * (or a social provider) was accepted: the app's code, or one recovery code.
 */
export function TwoFactorChallenge({ onRestart }: { onRestart: () => void }) {
  const { t } = useTranslation();
  const signedIn = useSignedIn();
  const [recovery, setRecovery] = useState(false);
  const [value, setValue] = useState('');
  const field = recovery ? 'recovery_code' : 'code';
  const challenge = useApiForm(async () => {
    // Loaded on submit, like the sign-in form's schema, to keep zod off the sign-in page.
    const { RecoveryCodeAnswer, TwoFactorCodeAnswer } = await import('./sign-in-schemas');
    return api.post<UserResource>(
      '/api/two-factor-challenge',
      validateWith(recovery ? RecoveryCodeAnswer : TwoFactorCodeAnswer, { [field]: value.trim() }),
      { handleUnauthorized: false },
    );
  }, signedIn);
  const switchMode = () => {
    setRecovery(!recovery);
    setValue('');
  };

  return (
    <>
      <AuthHeading
        title={recovery ? t('two_factor.recovery_title') : t('auth.two_factor_title')}
        lead={recovery ? t('two_factor.recovery_lead') : t('auth.two_factor_lead')}
      />
      <form className="flex flex-col gap-5" onSubmit={challenge.onSubmit} noValidate>
        <InputField
          key={field}
          label={recovery ? t('two_factor.recovery_code') : t('auth.two_factor_code')}
          inputMode={recovery ? 'text' : 'numeric'}
          autoComplete={recovery ? 'off' : 'one-time-code'}
          autoCapitalize="none"
          spellCheck={false}
          autoFocus
          maxLength={recovery ? 100 : 7}
          className={recovery ? undefined : '[&_input]:font-mono [&_input]:tracking-[0.3em]'}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          error={challenge.fieldErrors[field]}
        />
        <FormError message={challenge.formError} />
        <Button type="submit" size="lg" loading={challenge.submitting}>
          {t('auth.verify')}
        </Button>
      </form>
      <div className="mt-6 flex flex-col items-center gap-3 text-sm">
        <button type="button" className="font-medium text-accent hover:underline" onClick={switchMode}>
          {recovery ? t('two_factor.use_app_code') : t('two_factor.use_recovery_code')}
        </button>
        <button type="button" className="text-muted hover:text-ink hover:underline" onClick={onRestart}>
          {t('two_factor.back_to_sign_in')}
        </button>
      </div>
    </>
  );
}
