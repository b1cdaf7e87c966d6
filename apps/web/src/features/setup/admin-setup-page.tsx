import { AdminSetupBody } from '@atelier/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { NewAccountFields } from '../auth/new-account-fields';
import { api } from '../../lib/api-client';
import { bindField, useApiForm, validateWith } from '../../lib/use-api-form';
import { FormError } from '../auth/auth-heading';
import { configQuery, userQuery } from '../session/session-queries';
import { forgetSetupToken } from './setup-token';
import { StepActions, StepHeader } from './step-header';

/** The last step: the first admin account; the server marks the instance installed and signs them in. */
export function AdminSetupPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [values, setValues] = useState({ name: '', email: '', password: '', password_confirmation: '' });
  const form = useApiForm(
    () => api.post('/api/setup/admin-setup', validateWith(AdminSetupBody, values)),
    async () => {
      // The installation is done: the server has already dropped every setup token.
      forgetSetupToken();
      await queryClient.fetchQuery({ ...configQuery, staleTime: 0 });
      await queryClient.fetchQuery({ ...userQuery, staleTime: 0 });
      await navigate('/admin/dashboard', { replace: true });
    },
  );
  const field = bindField(values, setValues, form.fieldErrors);

  return (
    <form onSubmit={form.onSubmit} noValidate>
      <StepHeader title={t('setup.admin.title')} lead={t('setup.admin.lead')} />
      <div className="grid gap-5 sm:grid-cols-2">
        <NewAccountFields field={field} />
      </div>
      <div className="mt-5">
        <FormError message={form.formError} />
      </div>
      <StepActions>
        <Button type="submit" loading={form.submitting}>
          {t('setup.admin.submit')}
        </Button>
      </StepActions>
    </form>
  );
}
