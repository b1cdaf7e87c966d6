import type { TwoFactorRequired, UserResource } from '@atelier/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useSearchParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { InputField } from '../../components/ui/field';
import { api } from '../../lib/api-client';
import { useApiForm, validateWith } from '../../lib/use-api-form';
import { useConfig, useSession } from '../session/session-queries';
import { AuthHeading, FormError } from './auth-heading';
import { SocialButtons } from './social-buttons';
import { TwoFactorChallenge } from './two-factor-challenge';
import { usePostSignInPath, useSignedIn } from './use-signed-in';

type LoginAnswer = UserResource | TwoFactorRequired;

export function SignInPage() {
  const { t } = useTranslation();
  const config = useConfig();
  const { user } = useSession();
  const [params, setParams] = useSearchParams();
  const pathFor = usePostSignInPath();
  const signedIn = useSignedIn();
  const [values, setValues] = useState({ email: '', password: '' });
  const [twoFactor, setTwoFactor] = useState(false);

  const login = useApiForm(
    async () => {
      // The schema, and zod with it, load with the first submit instead of with the page.
      const { LoginBody } = await import('./sign-in-schemas');
      return api.post<LoginAnswer>('/api/login', validateWith(LoginBody, values), {
        handleUnauthorized: false,
      });
    },
    async (answer) => {
      if ('two_factor' in answer) setTwoFactor(true);
      else await signedIn(answer);
    },
  );
  if (user && !login.submitting) return <Navigate to={pathFor(user)} replace />;
  const redirecting = params.has('redirect');

  if (twoFactor || params.get('two_factor') === '1') {
    return (
      <TwoFactorChallenge
        onRestart={() => {
          setTwoFactor(false);
          setParams((current) => {
            current.delete('two_factor');
            return current;
          });
        }}
      />
    );
  }

  return (
    <>
      <AuthHeading
        title={t('auth.sign_in_title')}
        lead={redirecting ? t('auth.sign_in_to_continue') : t('auth.sign_in_lead')}
      />
      <form className="flex flex-col gap-5" onSubmit={login.onSubmit} noValidate>
        {params.get('verification') === 'invalid' && <FormError message={t('auth.verification_invalid')} />}
        <InputField
          label={t('fields.email')}
          type="email"
          autoComplete="email"
          autoFocus
          value={values.email}
          onChange={(event) => setValues({ ...values, email: event.target.value })}
          error={login.fieldErrors.email}
        />
        <InputField
          label={t('fields.password')}
          type="password"
          autoComplete="current-password"
          value={values.password}
          onChange={(event) => setValues({ ...values, password: event.target.value })}
          error={login.fieldErrors.password}
        />
        <Link
          to="/forgotten-password"
          className="-mt-2 self-end text-sm font-medium text-accent hover:underline"
        >
          {t('auth.forgot_password')}
        </Link>
        <FormError message={login.formError} />
        <Button type="submit" size="lg" loading={login.submitting}>
          {t('auth.sign_in')}
        </Button>
      </form>
      <div className="mt-6 flex flex-col gap-6">
        <SocialButtons providers={config.socialProviders} />
        {config.registration && (
          <p className="text-center text-sm text-muted">
            {t('auth.no_account')}{' '}
            <Link to="/inhouse-sign-up" className="font-medium text-accent hover:underline">
              {t('auth.create_account')}
            </Link>
          </p>
        )}
      </div>
    </>
  );
}
