import { Switch as RadixSwitch } from 'radix-ui';
import { useId } from 'react';

interface SwitchFieldProps {
  label: string;
  description?: string;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
}

/** The bare switch; its label is the caller's (a `<label htmlFor={id}>`). */
export function Switch({
  id,
  checked,
  onCheckedChange,
  label,
}: {
  id: string;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  /** A name of its own, where the visible label alone would not tell several switches apart. */
  label?: string;
}) {
  return (
    <RadixSwitch.Root
      id={id}
      aria-label={label}
      checked={checked}
      onCheckedChange={onCheckedChange}
      className="relative h-6 w-11 shrink-0 cursor-pointer rounded-full bg-line transition-colors data-[state=checked]:bg-accent"
    >
      <RadixSwitch.Thumb className="block size-5 translate-x-0.5 rounded-full bg-white shadow-soft transition-transform data-[state=checked]:translate-x-[22px]" />
    </RadixSwitch.Root>
  );
}

export function SwitchField({ label, description, checked, onCheckedChange }: SwitchFieldProps) {
  const id = useId();
  return (
    <div className="flex items-center justify-between gap-4 rounded-xl border border-line bg-surface px-4 py-3">
      <label htmlFor={id} className="flex flex-col">
        <span className="text-sm font-medium">{label}</span>
        {description && <span className="text-xs text-muted">{description}</span>}
      </label>
      <Switch id={id} checked={checked} onCheckedChange={onCheckedChange} />
    </div>
  );
}
