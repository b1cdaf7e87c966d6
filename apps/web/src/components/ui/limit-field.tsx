import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../lib/cn';
import { control, Field } from './field';
import { Switch } from './switch';

interface LimitFieldProps {
  label: string;
  hint?: string;
  error?: string;
  value: string;
  onChange: (event: { target: { value: string } }) => void;
  /** The value the API takes for "no limit" (-1 for team members, 0 for the upload size). */
  unlimited: number;
  /** What the number becomes when the switch is turned off again. */
  fallback: string;
  step?: number | 'any';
}

/**
 * A limit as a number beside an "Unlimited" switch: nobody has to know that -1 or 0 means no limit,
 * while the form still sends the API its sentinel.
 */
export function LimitField({
  label,
  hint,
  error,
  value,
  onChange,
  unlimited,
  fallback,
  step,
}: LimitFieldProps) {
  const { t } = useTranslation();
  const switchId = useId();
  const isUnlimited = value.trim() !== '' && Number(value) === unlimited;
  return (
    <Field label={label} error={error} hint={hint}>
      {(id, describedBy) => (
        <div className="flex items-center gap-3">
          <input
            id={id}
            type="number"
            min={0}
            step={step}
            inputMode="decimal"
            disabled={isUnlimited}
            value={isUnlimited ? '' : value}
            placeholder={isUnlimited ? t('limits.unlimited') : undefined}
            onChange={onChange}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
            className={cn(control, 'h-11 min-w-0 flex-1 disabled:cursor-not-allowed disabled:bg-surface-2')}
          />
          <label
            htmlFor={switchId}
            className="flex shrink-0 cursor-pointer items-center gap-2 text-sm font-medium"
          >
            <Switch
              id={switchId}
              checked={isUnlimited}
              label={t('limits.unlimited_for', { name: label })}
              onCheckedChange={(on) => onChange({ target: { value: on ? String(unlimited) : fallback } })}
            />
            {t('limits.unlimited')}
          </label>
        </div>
      )}
    </Field>
  );
}
