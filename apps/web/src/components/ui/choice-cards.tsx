import { RadioGroup } from 'radix-ui';
import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';

interface Choice<T extends string> {
  value: T;
  title: string;
  description?: string;
  icon?: ReactNode;
}

interface ChoiceCardsProps<T extends string> {
  label: string;
  value: T;
  onChange: (value: T) => void;
  choices: Choice<T>[];
  /** Cards side by side from the small breakpoint up. */
  columns?: 2 | 3;
}

const COLUMNS = { 2: 'sm:grid-cols-2', 3: 'sm:grid-cols-3' } as const;

/** A radio group drawn as selectable cards (database driver, storage driver…). */
export function ChoiceCards<T extends string>({
  label,
  value,
  onChange,
  choices,
  columns = 2,
}: ChoiceCardsProps<T>) {
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1.5 text-sm font-medium">{label}</legend>
      <RadioGroup.Root
        value={value}
        onValueChange={(next) => onChange(next as T)}
        aria-label={label}
        className={cn('grid gap-2', COLUMNS[columns])}
      >
        {choices.map((choice) => (
          <RadioGroup.Item
            key={choice.value}
            value={choice.value}
            className={cn(
              'flex cursor-pointer items-start gap-3 rounded-xl border border-line bg-surface p-3.5 text-left transition-colors hover:border-muted/40',
              'data-[state=checked]:border-accent data-[state=checked]:bg-accent-soft/60 data-[state=checked]:ring-3 data-[state=checked]:ring-accent/15',
            )}
          >
            {choice.icon && <span className="mt-0.5 text-accent">{choice.icon}</span>}
            <span className="flex flex-col">
              <span className="text-sm font-semibold">{choice.title}</span>
              {choice.description && <span className="text-xs text-muted">{choice.description}</span>}
            </span>
          </RadioGroup.Item>
        ))}
      </RadioGroup.Root>
    </fieldset>
  );
}
