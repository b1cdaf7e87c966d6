import { PurchaseCodeBody } from '@atelier/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { InputField } from '../../components/ui/field';
import { api } from '../../lib/api-client';
import { useApiForm, validateWith } from '../../lib/use-api-form';
import { FormError } from '../auth/auth-heading';
import { StepActions, StepHeader } from './step-header';
import { wizardPath } from './wizard-steps';

/** An optional licence code; the step can be skipped. */
export function PurchaseCodePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [purchaseCode, setPurchaseCode] = useState('');
  const form = useApiForm(
    () => api.post('/api/setup/purchase-code', validateWith(PurchaseCodeBody, { purchaseCode })),
    () => navigate(wizardPath('database')),
  );

  return (
    <form onSubmit={form.onSubmit} noValidate>
      <StepHeader title={t('setup.purchase.title')} lead={t('setup.purchase.lead')} />
      <InputField
        label={t('setup.purchase.code')}
        placeholder="xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"
        autoComplete="off"
        spellCheck={false}
        value={purchaseCode}
        onChange={(event) => setPurchaseCode(event.target.value)}
        error={form.fieldErrors.purchaseCode}
      />
      <div className="mt-4">
        <FormError message={form.formError} />
      </div>
      <StepActions>
        <Button asChild variant="ghost">
          <Link to={wizardPath('database')}>{t('setup.skip')}</Link>
        </Button>
        <Button type="submit" loading={form.submitting}>
          {t('setup.purchase.verify')}
        </Button>
      </StepActions>
    </form>
  );
}
