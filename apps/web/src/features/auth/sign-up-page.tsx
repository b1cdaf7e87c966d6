import { RegisterBody, type UserResource } from '@atelier/contracts';
import { MailCheck } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { NewAccountFields } from './new-account-fields';
import { api } from '../../lib/api-client';
import { bindField, useApiForm, validateWith } from '../../lib/use-api-form';
import { homePathFor, useConfig, useSession } from '../session/session-queries';
import { AuthHeading, FormError } from './auth-heading';
import { StatusPanel } from './status-panel';
import { useSignedIn } from './use-signed-in';

type RegisterAnswer = UserResource | { verify: true };

export function SignUpPage() {
  const { t } = useTranslation();
  const config = useConfig();
  const { user } = useSession();
  const signedIn = useSignedIn();
  const [verifyEmail, setVerifyEmail] = useState(false);
  const [values, setValues] = useState({ name: '', email: '', password: '', password_confirmation: '' });
  const form = useApiForm(
    () =>
      api.post<RegisterAnswer>('/api/register', validateWith(RegisterBody, values), {
        handleUnauthorized: false,
      }),
    async (answer) => {
      if ('verify' in answer) setVerifyEmail(true);
      else await signedIn(answer);
    },
  );

  if (user && !form.submitting) return <Navigate to={homePathFor(user.attributes)} replace />;
  if (!config.registration) {
    return (
      <StatusPanel title={t('auth.registration_closed_title')} body={t('auth.registration_closed_body')}>
        <Button asChild size="lg">
          <Link to="/sign-in">{t('auth.sign_in')}</Link>
        </Button>
      </StatusPanel>
    );
  }
  if (verifyEmail) {
    return (
      <StatusPanel
        icon={MailCheck}
        title={t('auth.verify_title')}
        body={t('auth.verify_body', { email: values.email })}
      >
        <Button asChild size="lg" variant="secondary">
          <Link to="/sign-in">{t('auth.back_to_sign_in')}</Link>
        </Button>
      </StatusPanel>
    );
  }

  const field = bindField(values, setValues, form.fieldErrors);

  return (
    <>
      <AuthHeading title={t('auth.sign_up_title')} lead={t('auth.sign_up_lead', { name: config.app.name })} />
      <form className="flex flex-col gap-5" onSubmit={form.onSubmit} noValidate>
        <NewAccountFields field={field} autoFocus />
        <FormError message={form.formError} />
        <Button type="submit" size="lg" loading={form.submitting}>
          {t('auth.create_account')}
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-muted">
        {t('auth.have_account')}{' '}
        <Link to="/sign-in" className="font-medium text-accent hover:underline">
          {t('auth.sign_in')}
        </Link>
      </p>
    </>
  );
}
