import type { AdminSettings, SettingsGroup } from '@atelier/contracts';
import type { UseQueryResult } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { pushToast } from '../../../components/overlays/overlay-store';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Field, InputField } from '../../../components/ui/field';
import { Spinner } from '../../../components/ui/spinner';
import { useApiForm } from '../../../lib/use-api-form';
import { useAdminSettings, useSaveSettings } from './settings-api';

/** A query's data once it is there: a spinner until then, the load error if it fails. */
export function QueryLoader<T>({
  query,
  children,
}: {
  query: UseQueryResult<T>;
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation();
  if (query.isError)
    return (
      <Card className="p-6 text-sm text-danger" role="alert">
        {t('admin_settings.load_failed')}
      </Card>
    );
  if (!query.data)
    return (
      <div className="grid min-h-48 place-items-center" aria-busy="true">
        <Spinner className="size-6 text-accent" />
      </div>
    );
  return children(query.data);
}

/** Loads one group's settings and hands them to the tab's form once they are there. */
export function SettingsLoader({
  group,
  children,
}: {
  group: SettingsGroup;
  children: (settings: AdminSettings) => ReactNode;
}) {
  return <QueryLoader query={useAdminSettings(group)}>{children}</QueryLoader>;
}

/** A titled card of related settings. */
export function SettingsSection({
  title,
  lead,
  icon,
  children,
  footer,
}: {
  title: string;
  lead?: string;
  icon?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <Card className="flex flex-col gap-5 p-5 sm:p-6">
      <div className="flex items-start gap-4">
        {icon && (
          <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-surface-2 text-accent">
            {icon}
          </span>
        )}
        <div className="flex min-w-0 flex-col gap-1">
          <h2 className="text-lg font-semibold">{title}</h2>
          {lead && <p className="text-sm text-muted">{lead}</p>}
        </div>
      </div>
      {children}
      {footer && (
        <div className="flex flex-wrap items-center justify-end gap-3 border-t border-line pt-4">
          {footer}
        </div>
      )}
    </Card>
  );
}

/**
 * A tab's form: sends what `payload` builds from the draft, shows each refused setting's message on
 * its field (the 422's `errors`, keyed by setting name or `name.field`) and a toast once saved.
 */
export function useSettingsForm<T>(
  group: SettingsGroup,
  initial: T,
  payload: (draft: T) => Record<string, unknown>,
) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(initial);
  const save = useSaveSettings(group);
  const form = useApiForm(
    () => save(payload(draft)),
    () => {
      pushToast('success', t('admin_settings.saved'));
    },
  );
  const set = <K extends keyof T>(key: K, value: T[K]) =>
    setDraft((current) => ({ ...current, [key]: value }));
  return { draft, set, setDraft, ...form };
}

/** The form element with its save button at the end. */
export function SettingsForm({
  onSubmit,
  submitting,
  formError,
  children,
  submitLabel,
}: {
  onSubmit: (event: FormEvent) => void;
  submitting: boolean;
  formError: string | null;
  children: ReactNode;
  submitLabel?: string;
}) {
  const { t } = useTranslation();
  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-6" noValidate>
      {children}
      <div className="flex flex-col items-stretch gap-2 sm:flex-row sm:items-center sm:justify-end">
        {formError && (
          <p role="alert" className="text-sm text-danger sm:mr-auto">
            {formError}
          </p>
        )}
        <Button type="submit" loading={submitting}>
          {submitLabel ?? t('admin_settings.save')}
        </Button>
      </div>
    </form>
  );
}

/**
 * A write-only secret: once stored it shows as set, with a button to type a replacement; left
 * untouched, the form sends null and the server keeps the stored one.
 */
export function SecretField({
  label,
  isSet,
  value,
  onChange,
  error,
  hint,
  placeholder,
}: {
  label: string;
  isSet: boolean;
  value: string | null;
  onChange: (value: string | null) => void;
  error?: string;
  hint?: string;
  placeholder?: string;
}) {
  const { t } = useTranslation();
  if (isSet && value === null)
    return (
      <Field label={label} error={error} hint={hint}>
        {(id, describedBy) => (
          <div
            id={id}
            aria-describedby={describedBy}
            className="flex h-11 items-center justify-between gap-3 rounded-xl border border-line bg-surface-2 pr-1.5 pl-3.5"
          >
            <span className="flex min-w-0 items-center gap-2 text-sm text-muted">
              <KeyRound className="size-4 shrink-0 text-success" aria-hidden />
              <span className="truncate">{t('admin_settings.secret_set')}</span>
            </span>
            <Button type="button" size="sm" variant="secondary" onClick={() => onChange('')}>
              {t('admin_settings.secret_replace')}
            </Button>
          </div>
        )}
      </Field>
    );
  return (
    <div className="flex flex-col gap-1.5">
      <InputField
        label={label}
        type="password"
        autoComplete="new-password"
        value={value ?? ''}
        placeholder={placeholder}
        onChange={(event) => onChange(event.target.value)}
        error={error}
        hint={hint}
      />
      {isSet && (
        <button
          type="button"
          className="w-fit cursor-pointer text-xs font-medium text-accent hover:underline"
          onClick={() => onChange(null)}
        >
          {t('admin_settings.secret_keep')}
        </button>
      )}
    </div>
  );
}

/** Whole megabytes shown for a byte setting, and back. */
export const MEGABYTE = 1024 * 1024;
export const toMegabytes = (bytes: number) => String(Math.round((bytes / MEGABYTE) * 100) / 100);
export const fromMegabytes = (text: string) => Math.round(Number(text) * MEGABYTE);
/** A number field's text sent as a number; blank stays blank so the server names it. */
export const numberOrText = (text: string): number | string => (text.trim() === '' ? text : Number(text));
