import { AdminCreateUserBody } from '@atelier/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { pushToast } from '../../../components/overlays/overlay-store';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { InputField, SelectField } from '../../../components/ui/field';
import { bindField, useApiForm, validateWith } from '../../../lib/use-api-form';
import { AdminHeader } from './admin-header';
import { adminKeys, createUser, gigabytesOf } from './admin-users-api';
import { FormFooter } from '../../../components/ui/form-footer';

const EMPTY = { name: '', email: '', password: '', role: 'user', max_storage_amount: '' };

/** /admin/user/create: a new account, its e-mail counted as verified. */
export function UserCreatePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [values, setValues] = useState(EMPTY);
  const form = useApiForm(
    () =>
      createUser(
        validateWith(AdminCreateUserBody, {
          ...values,
          max_storage_amount: gigabytesOf(values.max_storage_amount),
        }),
      ),
    async (created) => {
      await client.invalidateQueries({ queryKey: adminKeys.all });
      pushToast('success', t('admin_users.created', { name: created.data.attributes.name }));
      await navigate(`/admin/user/${created.data.id}/details`);
    },
  );
  const bind = bindField(values, setValues, form.fieldErrors);

  return (
    <section className="flex flex-col gap-6">
      <AdminHeader title={t('pages.admin_user_create')} lead={t('admin_users.create_lead')} />
      <Card className="p-5 sm:p-6">
        <form className="grid gap-5 sm:grid-cols-2" onSubmit={form.onSubmit} noValidate>
          <InputField label={t('admin_users.field_name')} autoComplete="off" {...bind('name')} />
          <InputField
            label={t('admin_users.field_email')}
            type="email"
            autoComplete="off"
            {...bind('email')}
          />
          <InputField
            label={t('admin_users.field_password')}
            type="password"
            autoComplete="new-password"
            hint={t('auth.password_hint')}
            {...bind('password')}
          />
          <SelectField
            label={t('admin_users.field_role')}
            options={[
              { value: 'user', label: t('roles.user') },
              { value: 'admin', label: t('roles.admin') },
            ]}
            {...bind('role')}
          />
          <InputField
            label={t('admin_users.field_capacity')}
            inputMode="decimal"
            placeholder={t('admin_users.capacity_default_placeholder')}
            hint={t('admin_users.capacity_hint')}
            {...bind('max_storage_amount')}
          />
          <FormFooter error={form.formError}>
            <Button type="submit" loading={form.submitting}>
              {t('admin_users.create_submit')}
            </Button>
            <Button asChild variant="ghost">
              <Link to="/admin/users">{t('admin_users.cancel')}</Link>
            </Button>
          </FormFooter>
        </form>
      </Card>
    </section>
  );
}
