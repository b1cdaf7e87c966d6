import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { pushToast } from '../../components/overlays/overlay-store';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { InputField, SelectField, TextareaField } from '../../components/ui/field';
import { bindField, useApiForm } from '../../lib/use-api-form';
import { AdminHeader } from '../admin/users/admin-header';
import { MetersEditor } from './meters-editor';
import { FeatureFields, featuresBody, type FeatureDraft } from './feature-fields';
import { meterBody, newMeter, type MeterDraft } from './plan-form';
import { planKeys, createPlan } from './plans-api';
import { FormFooter } from '../../components/ui/form-footer';

const EMPTY = { name: '', description: '', currency: 'USD', amount: '', interval: 'month' };
const NO_FEATURES: FeatureDraft = { max_storage_amount: '100', max_team_members: '-1' };

/** /admin/plan/create/fixed and /admin/plan/create/metered: a new plan, active at once. */
export function PlanCreatePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const type = useLocation().pathname.endsWith('/metered') ? 'metered' : 'fixed';
  const [values, setValues] = useState(EMPTY);
  const [features, setFeatures] = useState(NO_FEATURES);
  const [meters, setMeters] = useState<MeterDraft[]>([newMeter('storage')]);
  const form = useApiForm(
    () =>
      createPlan(
        type === 'fixed'
          ? {
              type,
              name: values.name,
              description: values.description,
              currency: values.currency,
              amount: values.amount.trim(),
              interval: values.interval,
              features: featuresBody(features),
            }
          : {
              type,
              name: values.name,
              description: values.description,
              currency: values.currency,
              meters: meters.map(meterBody),
            },
      ),
    async (created) => {
      await client.invalidateQueries({ queryKey: planKeys.all });
      pushToast('success', t('plans.created', { name: created.data.attributes.name }));
      await navigate(`/admin/plan/${created.data.id}/${type}/settings`);
    },
  );
  const bind = bindField(values, setValues, form.fieldErrors);

  return (
    <section className="flex flex-col gap-6">
      <AdminHeader title={t(`pages.admin_plan_create_${type}`)} lead={t(`plans.create_lead_${type}`)} />
      <Card className="p-5 sm:p-6">
        <form className="grid gap-5 sm:grid-cols-2" onSubmit={form.onSubmit} noValidate>
          <InputField label={t('plans.field_name')} autoComplete="off" {...bind('name')} />
          <InputField
            label={t('plans.field_currency')}
            autoComplete="off"
            maxLength={3}
            hint={t('plans.currency_hint')}
            {...bind('currency')}
          />
          <TextareaField
            className="sm:col-span-2"
            label={t('plans.field_description')}
            rows={3}
            value={values.description}
            error={form.fieldErrors.description}
            onChange={(event) => setValues({ ...values, description: event.target.value })}
          />
          {type === 'fixed' ? (
            <>
              <InputField
                label={t('plans.field_amount')}
                inputMode="decimal"
                placeholder="19.99"
                {...bind('amount')}
              />
              <SelectField
                label={t('plans.field_interval')}
                options={[
                  { value: 'month', label: t('plans.interval.month') },
                  { value: 'year', label: t('plans.interval.year') },
                ]}
                {...bind('interval')}
              />
              <FeatureFields values={features} onChange={setFeatures} errors={form.fieldErrors} />
            </>
          ) : (
            <MetersEditor
              meters={meters}
              onChange={setMeters}
              errors={form.fieldErrors}
              currency={values.currency.toUpperCase()}
            />
          )}
          <FormFooter error={form.formError}>
            <Button type="submit" loading={form.submitting}>
              {t('plans.create_submit')}
            </Button>
            <Button asChild variant="ghost">
              <Link to="/admin/plans">{t('plans.cancel')}</Link>
            </Button>
          </FormFooter>
        </form>
      </Card>
    </section>
  );
}
