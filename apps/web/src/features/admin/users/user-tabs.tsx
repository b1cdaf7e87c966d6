import {
  AdminCapacityBody,
  AdminPasswordBody,
  AdminUpdateUserBody,
  BYTES_PER_GB,
  type AdminUserDetail,
} from '@atelier/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { MailCheck, ShieldAlert } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { pushToast } from '../../../components/overlays/overlay-store';
import { Button } from '../../../components/ui/button';
import { InputField, SelectField } from '../../../components/ui/field';
import { bindField, useApiForm, validateWith } from '../../../lib/use-api-form';
import { formatBytes } from '../../files/item-kind';
import { userQueryKey } from '../../session/session-queries';
import { adminKeys, deleteUser, gigabytesOf, setCapacity, setPassword, updateUser } from './admin-users-api';
import { FormFooter } from '../../../components/ui/form-footer';
import { TabHeading } from '../../../components/ui/link-tabs';
import { AdminUserSubscription } from '../../billing/admin-user-subscription';

export interface TabProps {
  user: AdminUserDetail;
}

/** After a change: the admin's lists and this account (it may be the admin's own) are read again. */
function useRefresh() {
  const client = useQueryClient();
  return async () => {
    await Promise.all([
      client.invalidateQueries({ queryKey: adminKeys.all }),
      client.invalidateQueries({ queryKey: userQueryKey }),
    ]);
  };
}

export function DetailsTab({ user }: TabProps) {
  const { t } = useTranslation();
  const refresh = useRefresh();
  const { attributes } = user.data;
  const [values, setValues] = useState({
    name: attributes.name,
    email: attributes.email,
    role: attributes.role,
  });
  const form = useApiForm(
    () => updateUser(user.data.id, validateWith(AdminUpdateUserBody, values)),
    async () => {
      await refresh();
      pushToast('success', t('admin_users.saved'));
    },
  );
  const bind = bindField(values, setValues, form.fieldErrors);

  return (
    <>
      <TabHeading title={t('admin_users.tab.details')} lead={t('admin_users.details_lead')} />
      <form className="grid gap-5 sm:grid-cols-2" onSubmit={form.onSubmit} noValidate>
        <InputField label={t('admin_users.field_name')} autoComplete="off" {...bind('name')} />
        <InputField label={t('admin_users.field_email')} type="email" autoComplete="off" {...bind('email')} />
        <SelectField
          label={t('admin_users.field_role')}
          options={[
            { value: 'user', label: t('roles.user') },
            { value: 'admin', label: t('roles.admin') },
          ]}
          {...bind('role')}
        />
        <FormFooter error={form.formError}>
          <Button type="submit" loading={form.submitting}>
            {t('admin_users.save')}
          </Button>
        </FormFooter>
      </form>
    </>
  );
}

const CATEGORY_COLOUR: Record<string, string> = {
  images: '#e35d3c',
  videos: '#6a6fdc',
  audios: '#2fa59b',
  documents: '#e8a23a',
  others: '#9a8f86',
};

export function StorageTab({ user }: TabProps) {
  const { t, i18n } = useTranslation();
  const refresh = useRefresh();
  const { storage } = user.meta;
  const bytes = (value: number) => formatBytes(value, i18n.language);
  const [values, setValues] = useState({
    max_storage_amount:
      storage.custom_capacity === null ? '' : String(storage.custom_capacity / BYTES_PER_GB),
  });
  const form = useApiForm(
    () =>
      setCapacity(
        user.data.id,
        validateWith(AdminCapacityBody, { max_storage_amount: gigabytesOf(values.max_storage_amount) })
          .max_storage_amount,
      ),
    async () => {
      await refresh();
      pushToast('success', t('admin_users.capacity_saved'));
    },
  );
  const bind = bindField(values, setValues, form.fieldErrors);
  const share = (used: number) => (storage.capacity ? (used / storage.capacity) * 100 : 0);

  return (
    <>
      <TabHeading title={t('admin_users.tab.storage')} lead={t('admin_users.storage_lead')} />
      <div className="flex flex-col gap-6">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <div>
            <p className="text-sm text-muted">{t('admin_users.storage_used')}</p>
            <p
              className="font-display text-3xl font-semibold tracking-tight tabular-nums"
              data-testid="storage-used"
            >
              {bytes(storage.used)}
            </p>
          </div>
          <p className="text-sm text-muted" data-testid="storage-capacity">
            {storage.capacity === null
              ? t('admin_users.capacity_unlimited')
              : t(
                  storage.custom_capacity === null
                    ? 'admin_users.capacity_of_default'
                    : 'admin_users.capacity_of',
                  {
                    capacity: bytes(storage.capacity),
                  },
                )}
          </p>
        </div>
        {storage.capacity !== null && (
          <div className="flex h-3 w-full overflow-hidden rounded-full bg-surface-2" aria-hidden>
            {storage.categories
              .filter((entry) => entry.used > 0)
              .map((entry) => (
                <div
                  key={entry.category}
                  className="h-full border-r-2 border-surface last:border-r-0"
                  style={{
                    width: `${Math.max(share(entry.used), 1)}%`,
                    backgroundColor: CATEGORY_COLOUR[entry.category],
                  }}
                />
              ))}
          </div>
        )}
        <ul className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
          {storage.categories.map((entry) => (
            <li
              key={entry.category}
              className="flex items-center gap-3 rounded-xl border border-line px-3.5 py-2.5"
            >
              <span
                className="size-2.5 rounded-full"
                style={{ backgroundColor: CATEGORY_COLOUR[entry.category] }}
                aria-hidden
              />
              <span className="flex-1 text-sm font-medium">{t(`storage.category.${entry.category}`)}</span>
              <span className="text-sm text-muted tabular-nums">{bytes(entry.used)}</span>
            </li>
          ))}
        </ul>

        <form
          className="grid gap-4 border-t border-line pt-6 sm:grid-cols-2"
          onSubmit={form.onSubmit}
          noValidate
        >
          <InputField
            label={t('admin_users.field_capacity')}
            inputMode="decimal"
            placeholder={t('admin_users.capacity_default_placeholder')}
            hint={t('admin_users.capacity_hint')}
            {...bind('max_storage_amount')}
          />
          <FormFooter error={form.formError}>
            <Button type="submit" loading={form.submitting}>
              {t('admin_users.capacity_save')}
            </Button>
          </FormFooter>
        </form>
      </div>
    </>
  );
}

export function SubscriptionTab({ user }: TabProps) {
  return <AdminUserSubscription user={user} />;
}

const NO_PASSWORDS = { password: '', password_confirmation: '' };

export function PasswordTab({ user }: TabProps) {
  const { t } = useTranslation();
  const [values, setValues] = useState(NO_PASSWORDS);
  const [sending, setSending] = useState(false);
  const form = useApiForm(
    () => setPassword(user.data.id, validateWith(AdminPasswordBody, values)),
    () => {
      setValues(NO_PASSWORDS);
      pushToast('success', t('admin_users.password_set'));
    },
  );
  const bind = bindField(values, setValues, form.fieldErrors);
  const sendLink = async () => {
    setSending(true);
    try {
      await setPassword(user.data.id, { send_reset_link: true });
      pushToast('success', t('admin_users.reset_link_sent', { email: user.data.attributes.email }));
    } catch {
      pushToast('danger', t('admin_users.reset_link_failed'));
    } finally {
      setSending(false);
    }
  };

  return (
    <>
      <TabHeading title={t('admin_users.tab.password')} lead={t('admin_users.password_lead')} />
      <form className="grid gap-5 sm:grid-cols-2" onSubmit={form.onSubmit} noValidate>
        <InputField
          label={t('admin_users.field_new_password')}
          type="password"
          autoComplete="new-password"
          hint={t('auth.password_hint')}
          {...bind('password')}
        />
        <InputField
          label={t('admin_users.field_password_confirmation')}
          type="password"
          autoComplete="new-password"
          {...bind('password_confirmation')}
        />
        <FormFooter error={form.formError}>
          <Button type="submit" loading={form.submitting}>
            {t('admin_users.password_submit')}
          </Button>
        </FormFooter>
      </form>
      <div className="mt-6 flex flex-col gap-3 rounded-2xl bg-surface-2 p-4 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex items-start gap-3">
          <MailCheck className="mt-0.5 size-5 shrink-0 text-accent" aria-hidden />
          <p className="text-sm text-muted">
            {t('admin_users.reset_link_lead', { email: user.data.attributes.email })}
          </p>
        </div>
        <Button variant="secondary" loading={sending} onClick={() => void sendLink()} className="shrink-0">
          {t('admin_users.reset_link_send')}
        </Button>
      </div>
    </>
  );
}

export function DeleteTab({ user }: TabProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [typed, setTyped] = useState('');
  const name = user.data.attributes.name;
  const form = useApiForm(
    () => deleteUser(user.data.id, typed),
    async () => {
      client.removeQueries({ queryKey: adminKeys.user(user.data.id) });
      await client.invalidateQueries({ queryKey: adminKeys.all });
      pushToast('success', t('admin_users.deleted', { name }));
      await navigate('/admin/users');
    },
  );

  return (
    <>
      <TabHeading title={t('admin_users.tab.delete')} lead={t('admin_users.delete_lead')} />
      <div className="mb-5 flex items-start gap-3 rounded-2xl border border-danger/30 bg-danger-soft p-4 text-sm">
        <ShieldAlert className="mt-0.5 size-5 shrink-0 text-danger" aria-hidden />
        <p>{t('admin_users.delete_warning', { name })}</p>
      </div>
      <form className="grid gap-5 sm:grid-cols-2" onSubmit={form.onSubmit} noValidate>
        <InputField
          label={t('admin_users.delete_type_name', { name })}
          autoComplete="off"
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          error={form.fieldErrors.name}
        />
        <FormFooter error={form.formError}>
          <Button
            type="submit"
            variant="danger"
            loading={form.submitting}
            disabled={typed.trim() !== name.trim()}
          >
            {t('admin_users.delete_submit')}
          </Button>
        </FormFooter>
      </form>
    </>
  );
}
