import { useTranslation } from 'react-i18next';
import { TEAM_MEMBERS_UNLIMITED } from '@atelier/contracts/constants';
import { InputField } from '../../components/ui/field';
import { LimitField } from '../../components/ui/limit-field';
import { unitsOf } from './plan-form';

export interface FeatureDraft {
  max_storage_amount: string;
  max_team_members: string;
}

export const featuresBody = (draft: FeatureDraft) => ({
  max_storage_amount: unitsOf(draft.max_storage_amount),
  max_team_members: unitsOf(draft.max_team_members),
});

/** A fixed plan's limits: storage in GB and team members (or no limit on them). */
export function FeatureFields({
  values,
  onChange,
  errors,
}: {
  values: FeatureDraft;
  onChange: (values: FeatureDraft) => void;
  errors: Record<string, string>;
}) {
  const { t } = useTranslation();
  return (
    <>
      <InputField
        label={t('plans.field_storage')}
        inputMode="numeric"
        hint={t('plans.storage_hint')}
        value={values.max_storage_amount}
        error={errors['features.max_storage_amount'] ?? errors.features}
        onChange={(event) => onChange({ ...values, max_storage_amount: event.target.value })}
      />
      <LimitField
        label={t('plans.field_members')}
        unlimited={TEAM_MEMBERS_UNLIMITED}
        fallback="5"
        step={1}
        hint={t('plans.members_hint')}
        value={values.max_team_members}
        error={errors['features.max_team_members']}
        onChange={(event) => onChange({ ...values, max_team_members: event.target.value })}
      />
    </>
  );
}
