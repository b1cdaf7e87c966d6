import { PasswordRecoverBody } from '@atelier/contracts';
import { MailCheck } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { InputField } from '../../components/ui/field';
import { api } from '../../lib/api-client';
import { useApiForm, validateWith } from '../../lib/use-api-form';
import { AuthHeading, FormError } from './auth-heading';
import { StatusPanel } from './status-panel';

export function ForgottenPasswordPage() {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const form = useApiForm(
    () => api.post('/api/password/recover', validateWith(PasswordRecoverBody, { email })),
    () => setSent(true),
  );

  if (sent) {
    return (
      <StatusPanel
        icon={MailCheck}
        title={t('auth.recover_sent_title')}
        body={t('auth.recover_sent_body', { email })}
      >
        <Button asChild size="lg" variant="secondary">
          <Link to="/sign-in">{t('auth.back_to_sign_in')}</Link>
        </Button>
      </StatusPanel>
    );
  }

  return (
    <>
      <AuthHeading title={t('auth.recover_title')} lead={t('auth.recover_lead')} />
      <form className="flex flex-col gap-5" onSubmit={form.onSubmit} noValidate>
        <InputField
          label={t('fields.email')}
          type="email"
          autoComplete="email"
          autoFocus
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={form.fieldErrors.email}
        />
        <FormError message={form.formError} />
        <Button type="submit" size="lg" loading={form.submitting}>
          {t('auth.recover_send')}
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-muted">
        <Link to="/sign-in" className="font-medium text-accent hover:underline">
          {t('auth.back_to_sign_in')}
        </Link>
      </p>
    </>
  );
}
