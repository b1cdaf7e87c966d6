import {
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
import { cn } from '../../lib/cn';

/** The look of every text control: inputs, text areas, selects. */
export const control =
  'w-full rounded-xl border border-line bg-surface px-3.5 text-sm text-ink shadow-[inset_0_1px_0_rgb(0_0_0/0.02)] transition-colors placeholder:text-muted/70 hover:border-muted/40 focus:border-accent focus:ring-3 focus:ring-accent/15 focus:outline-none aria-invalid:border-danger aria-invalid:ring-danger/15';

interface FieldProps {
  label: string;
  error?: string;
  hint?: ReactNode;
  className?: string;
  children: (id: string, describedBy: string | undefined) => ReactNode;
}

/** Label, control, hint and the server's validation message, wired for screen readers. */
export function Field({ label, error, hint, className, children }: FieldProps) {
  const id = useId();
  const messageId = `${id}-message`;
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <label htmlFor={id} className="text-sm font-medium text-ink">
        {label}
      </label>
      {children(id, error || hint ? messageId : undefined)}
      {error ? (
        <p id={messageId} role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : hint ? (
        <p id={messageId} className="text-xs text-muted">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

type InputFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'children'> & {
  label: string;
  error?: string;
  hint?: ReactNode;
};

export function InputField({ label, error, hint, className, ...props }: InputFieldProps) {
  return (
    <Field label={label} error={error} hint={hint} className={className}>
      {(id, describedBy) => (
        <input
          id={id}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          // A read-only value (an e-mail shown for reference) should not look like it can be typed in.
          className={cn(control, 'h-11', props.readOnly && 'bg-surface-2 text-muted hover:border-line')}
          {...props}
        />
      )}
    </Field>
  );
}

type TextareaFieldProps = TextareaHTMLAttributes<HTMLTextAreaElement> & {
  label: string;
  error?: string;
  hint?: ReactNode;
};

export function TextareaField({ label, error, hint, className, ...props }: TextareaFieldProps) {
  return (
    <Field label={label} error={error} hint={hint} className={className}>
      {(id, describedBy) => (
        <textarea
          id={id}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className={cn(control, 'min-h-32 py-3 leading-relaxed')}
          {...props}
        />
      )}
    </Field>
  );
}

/** The chevron drawn at the end of a select (the native one is hidden for one look everywhere). */
export const SELECT_CHEVRON =
  "url(\"data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='%23888' stroke-width='2'%3E%3Cpath d='m6 9 6 6 6-6'/%3E%3C/svg%3E\")";

type SelectFieldProps = SelectHTMLAttributes<HTMLSelectElement> & {
  label: string;
  error?: string;
  options: { value: string; label: string }[];
};

export function SelectField({ label, error, options, className, ...props }: SelectFieldProps) {
  return (
    <Field label={label} error={error} className={className}>
      {(id, describedBy) => (
        <select
          id={id}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className={cn(
            control,
            'h-11 appearance-none bg-[length:16px] bg-[right_0.85rem_center] bg-no-repeat pr-10',
          )}
          style={{ backgroundImage: SELECT_CHEVRON }}
          {...props}
        >
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
