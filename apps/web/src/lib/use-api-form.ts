import { issueMessageKey } from '@atelier/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { useGenericError } from '../components/overlays/use-generic-error';
import { ApiError } from './api-client';

/**
 * Checks values against a contracts schema before anything is sent; a failure looks exactly like
 * the server's 422, so both land in the same per-field messages.
 */
export function validateWith<S extends z.ZodType>(schema: S, values: unknown): z.infer<S> {
  const result = schema.safeParse(values);
  if (result.success) return result.data;
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.join('.') || '_';
    (errors[field] ??= []).push(issueMessageKey(issue));
  }
  throw new ApiError(422, 'validation_failed', 'validation_failed', errors);
}

/**
 * Submits a form to the API and keeps the server's validation messages per field (messages may be
 * translation keys such as `validation.email`). A failure that is not about a field (a 5xx, no
 * network) shows the generic alert.
 */
export function useApiForm<T>(submit: () => Promise<T>, onSuccess: (result: T) => void | Promise<void>) {
  const { t } = useTranslation();
  const [submitting, setSubmitting] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const showGenericError = useGenericError();

  const onSubmit = async (event?: { preventDefault(): void }) => {
    event?.preventDefault();
    setSubmitting(true);
    setFieldErrors({});
    setFormError(null);
    try {
      await onSuccess(await submit());
    } catch (error) {
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
        const fields = Object.fromEntries(
          Object.entries(error.errors ?? {}).map(([field, messages]) => [
            field,
            t(messages[0] ?? error.message),
          ]),
        );
        setFieldErrors(fields);
        if (Object.keys(fields).length === 0) setFormError(t(error.message));
      } else {
        showGenericError();
      }
    } finally {
      setSubmitting(false);
    }
  };

  return { submitting, fieldErrors, formError, onSubmit };
}

/** Binds text inputs to one key of a form's values, with that key's message from the last answer. */
export function bindField<V extends Record<string, string>>(
  values: V,
  setValues: (next: V) => void,
  fieldErrors: Record<string, string>,
) {
  return (name: keyof V & string) => ({
    value: values[name],
    onChange: (event: { target: { value: string } }) => setValues({ ...values, [name]: event.target.value }),
    error: fieldErrors[name],
  });
}
