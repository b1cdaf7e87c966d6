import { MeterKey } from '@atelier/contracts';
import { Plus, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button';
import { InputField, SelectField } from '../../components/ui/field';
import { newMeter, withTierAdded, type MeterDraft, type TierDraft } from './plan-form';

interface MetersEditorProps {
  meters: MeterDraft[];
  onChange: (meters: MeterDraft[]) => void;
  /** The server's 422 messages by field (`meters.0.tiers.1.first_unit`). */
  errors: Record<string, string>;
  currency: string;
}

/** A metered plan's meters, each with its price tiers; the server checks the tiers on submit. */
export function MetersEditor({ meters, onChange, errors, currency }: MetersEditorProps) {
  const { t } = useTranslation();
  const unused = MeterKey.options.filter((key) => !meters.some((meter) => meter.key === key));
  const setMeter = (index: number, meter: MeterDraft) =>
    onChange(meters.map((current, i) => (i === index ? meter : current)));

  return (
    <div className="flex flex-col gap-4 sm:col-span-2">
      {errors.meters && (
        <p role="alert" className="text-sm text-danger">
          {errors.meters}
        </p>
      )}
      {meters.map((meter, m) => (
        <fieldset
          key={meter.key}
          className="flex flex-col gap-4 rounded-2xl border border-line bg-surface-2/40 p-4"
          data-testid="meter"
        >
          <div className="flex flex-wrap items-end gap-3">
            <legend className="sr-only">{t(`plans.meter.${meter.key}`)}</legend>
            <SelectField
              className="min-w-40 flex-1"
              label={t('plans.field_meter')}
              value={meter.key}
              error={errors[`meters.${m}.key`]}
              onChange={(event) => setMeter(m, { ...meter, key: event.target.value as MeterDraft['key'] })}
              options={[meter.key, ...unused].map((key) => ({ value: key, label: t(`plans.meter.${key}`) }))}
            />
            <SelectField
              className="min-w-40 flex-1"
              label={t('plans.field_aggregate')}
              value={meter.aggregate}
              onChange={(event) =>
                setMeter(m, { ...meter, aggregate: event.target.value as MeterDraft['aggregate'] })
              }
              options={[
                { value: 'maximum', label: t('plans.aggregate.maximum') },
                { value: 'sum', label: t('plans.aggregate.sum') },
              ]}
            />
            <Button
              type="button"
              variant="ghost"
              onClick={() => onChange(meters.filter((_, i) => i !== m))}
              disabled={meters.length === 1}
            >
              <Trash2 className="size-4" aria-hidden />
              {t('plans.remove_meter')}
            </Button>
          </div>
          <p className="text-xs text-muted">{t(`plans.meter_hint.${meter.key}`)}</p>
          {errors[`meters.${m}.tiers`] && (
            <p role="alert" className="text-sm text-danger">
              {errors[`meters.${m}.tiers`]}
            </p>
          )}
          <ol className="flex flex-col gap-3">
            {meter.tiers.map((tier, i) => (
              <TierRow
                key={i}
                index={i}
                tier={tier}
                currency={currency}
                errorOf={(field) => errors[`meters.${m}.tiers.${i}.${field}`]}
                onChange={(next) =>
                  setMeter(m, {
                    ...meter,
                    tiers: meter.tiers.map((current, j) => (j === i ? next : current)),
                  })
                }
                onRemove={
                  meter.tiers.length > 1
                    ? () => setMeter(m, { ...meter, tiers: meter.tiers.filter((_, j) => j !== i) })
                    : undefined
                }
              />
            ))}
          </ol>
          <Button
            type="button"
            variant="secondary"
            size="sm"
            className="w-fit"
            onClick={() => setMeter(m, { ...meter, tiers: withTierAdded(meter.tiers) })}
          >
            <Plus className="size-4" aria-hidden />
            {t('plans.add_tier')}
          </Button>
        </fieldset>
      ))}
      {unused.length > 0 && (
        <Button
          type="button"
          variant="secondary"
          className="w-fit"
          onClick={() => onChange([...meters, newMeter(unused[0]!)])}
        >
          <Plus className="size-4" aria-hidden />
          {t('plans.add_meter')}
        </Button>
      )}
    </div>
  );
}

function TierRow({
  index,
  tier,
  currency,
  errorOf,
  onChange,
  onRemove,
}: {
  index: number;
  tier: TierDraft;
  currency: string;
  errorOf: (field: keyof TierDraft) => string | undefined;
  onChange: (tier: TierDraft) => void;
  onRemove?: () => void;
}) {
  const { t } = useTranslation();
  const bind = (field: keyof TierDraft) => ({
    value: tier[field],
    error: errorOf(field),
    onChange: (event: { target: { value: string } }) => onChange({ ...tier, [field]: event.target.value }),
  });
  return (
    <li className="grid grid-cols-2 gap-3 rounded-xl border border-line bg-surface p-3 sm:grid-cols-[repeat(4,minmax(0,1fr))_auto] sm:items-start">
      <p className="col-span-2 text-xs font-semibold tracking-wide text-muted uppercase sm:col-span-5">
        {t('plans.tier', { number: index + 1 })}
      </p>
      <InputField label={t('plans.field_first_unit')} inputMode="numeric" {...bind('first_unit')} />
      <InputField
        label={t('plans.field_last_unit')}
        inputMode="numeric"
        placeholder={t('plans.no_end')}
        {...bind('last_unit')}
      />
      <InputField label={t('plans.field_per_unit', { currency })} inputMode="decimal" {...bind('per_unit')} />
      <InputField label={t('plans.field_flat_fee', { currency })} inputMode="decimal" {...bind('flat_fee')} />
      {onRemove && (
        <Button
          type="button"
          variant="ghost"
          size="icon"
          className="sm:mt-7"
          onClick={onRemove}
          aria-label={t('plans.remove_tier', { number: index + 1 })}
          title={t('plans.remove_tier', { number: index + 1 })}
        >
          <Trash2 className="size-4" aria-hidden />
        </Button>
      )}
    </li>
  );
}
