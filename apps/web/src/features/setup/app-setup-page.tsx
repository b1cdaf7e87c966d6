import {
  ACCOUNT_AGE_CUTOFF,
  AppSetupBody,
  TEAM_MEMBERS_UNLIMITED,
  type SubscriptionType,
} from '@atelier/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { InputField, SelectField, TextareaField } from '../../components/ui/field';
import { LimitField } from '../../components/ui/limit-field';
import { SwitchField } from '../../components/ui/switch';
import { api } from '../../lib/api-client';
import { bindField, useApiForm, validateWith } from '../../lib/use-api-form';
import { FileManagerChoice } from '../admin/settings/file-manager-choice';
import { FormError } from '../auth/auth-heading';
import { StepActions, StepHeader } from './step-header';
import { wizardPath } from './wizard-steps';

const SUBSCRIPTION_TYPES: SubscriptionType[] = ['none', 'fixed', 'metered'];

export function AppSetupPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [values, setValues] = useState({
    title: 'Atelier',
    description: '',
    contactEmail: '',
    subscriptionType: 'none' as SubscriptionType,
    defaultStorage: '5',
    defaultTeamMembers: String(TEAM_MEMBERS_UNLIMITED),
  });
  const [registration, setRegistration] = useState(true);
  const [storageLimitation, setStorageLimitation] = useState(true);
  const [fileManagerCutoff, setFileManagerCutoff] = useState(ACCOUNT_AGE_CUTOFF);
  const [fileManagerForAll, setFileManagerForAll] = useState(false);
  const form = useApiForm(
    () =>
      api.post(
        '/api/setup/app-setup',
        validateWith(AppSetupBody, {
          ...values,
          registration,
          storageLimitation,
          fileManagerCutoff,
          fileManagerForAll,
        }),
      ),
    () => navigate(wizardPath('admin-setup')),
  );
  const field = bindField(values, setValues, form.fieldErrors);

  return (
    <form onSubmit={form.onSubmit} noValidate>
      <StepHeader title={t('setup.app.title')} lead={t('setup.app.lead')} />
      <div className="grid gap-5 sm:grid-cols-2">
        <InputField label={t('setup.app.name')} {...field('title')} />
        <InputField
          label={t('setup.app.contact_email')}
          type="email"
          autoComplete="email"
          {...field('contactEmail')}
        />
        <TextareaField
          label={t('setup.app.description')}
          className="sm:col-span-2"
          rows={3}
          {...field('description')}
        />
        <SelectField
          label={t('setup.app.subscription_type')}
          options={SUBSCRIPTION_TYPES.map((type) => ({
            value: type,
            label: t(`setup.app.subscription.${type}`),
          }))}
          {...field('subscriptionType')}
        />
        <LimitField
          label={t('setup.app.default_team_members')}
          unlimited={TEAM_MEMBERS_UNLIMITED}
          fallback="5"
          step={1}
          hint={t('setup.app.default_team_members_hint')}
          {...field('defaultTeamMembers')}
        />
        <SwitchField
          label={t('setup.app.registration')}
          description={t('setup.app.registration_hint')}
          checked={registration}
          onCheckedChange={setRegistration}
        />
        <SwitchField
          label={t('setup.app.storage_limitation')}
          description={t('setup.app.storage_limitation_hint')}
          checked={storageLimitation}
          onCheckedChange={setStorageLimitation}
        />
        {storageLimitation && (
          <InputField
            label={t('setup.app.default_storage')}
            type="number"
            min={0}
            {...field('defaultStorage')}
          />
        )}
        <div className="sm:col-span-2">
          <FileManagerChoice
            cutoff={fileManagerCutoff}
            forAll={fileManagerForAll}
            onCutoffChange={setFileManagerCutoff}
            onForAllChange={setFileManagerForAll}
            cutoffError={form.fieldErrors.fileManagerCutoff}
          />
        </div>
      </div>
      <div className="mt-5">
        <FormError message={form.formError} />
      </div>
      <StepActions>
        <Button type="submit" loading={form.submitting}>
          {t('setup.app.submit')}
        </Button>
      </StepActions>
    </form>
  );
}
