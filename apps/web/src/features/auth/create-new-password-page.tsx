import { PasswordResetBody } from '@atelier/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { pushToast } from '../../components/overlays/overlay-store';
import { Button } from '../../components/ui/button';
import { InputField } from '../../components/ui/field';
import { api } from '../../lib/api-client';
import { useApiForm, validateWith } from '../../lib/use-api-form';
import { AuthHeading, FormError } from './auth-heading';
import { StatusPanel } from './status-panel';

/** Reached from the reset e-mail: the link carries `token` and `email`. */
export function CreateNewPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const email = params.get('email') ?? '';
  const [values, setValues] = useState({ password: '', password_confirmation: '' });
  const form = useApiForm(
    () => api.post('/api/password/reset', validateWith(PasswordResetBody, { token, email, ...values })),
    async () => {
      pushToast('success', t('auth.reset_done'));
      await navigate('/sign-in', { replace: true });
    },
  );

  if (!token || !email) {
    return (
      <StatusPanel title={t('auth.reset_link_invalid_title')} body={t('auth.reset_link_invalid_body')}>
        <Button asChild size="lg">
          <Link to="/forgotten-password">{t('auth.recover_title')}</Link>
        </Button>
      </StatusPanel>
    );
  }

  return (
    <>
      <AuthHeading title={t('auth.reset_title')} lead={t('auth.reset_lead', { email })} />
      <form className="flex flex-col gap-5" onSubmit={form.onSubmit} noValidate>
        <InputField
          label={t('fields.new_password')}
          type="password"
          autoComplete="new-password"
          autoFocus
          hint={t('auth.password_hint')}
          value={values.password}
          onChange={(event) => setValues({ ...values, password: event.target.value })}
          error={form.fieldErrors.password}
        />
        <InputField
          label={t('fields.password_confirmation')}
          type="password"
          autoComplete="new-password"
          value={values.password_confirmation}
          onChange={(event) => setValues({ ...values, password_confirmation: event.target.value })}
          error={form.fieldErrors.password_confirmation}
        />
        <FormError message={form.fieldErrors.token ?? form.fieldErrors.email ?? form.formError} />
        <Button type="submit" size="lg" loading={form.submitting}>
          {t('auth.reset_submit')}
        </Button>
      </form>
    </>
  );
}
