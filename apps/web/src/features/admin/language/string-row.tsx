import { placeholderDifference, placeholdersOf, SOURCE_LOCALE } from '@atelier/contracts';
import { useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { AlertTriangle, Check, RotateCcw } from 'lucide-react';
import { useEffect, useEffectEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import {
  languageKeys,
  revertString,
  saveString,
  type TranslationStatus,
  type TranslationString,
} from './languages-api';

/** Typing pauses this long before the text is saved. */
export const AUTOSAVE_DELAY_MS = 700;

type SaveState = 'idle' | 'saving' | 'saved' | 'error';

const STATUS_STYLE = {
  default: 'bg-surface-2 text-muted',
  overridden: 'bg-success-soft text-success',
  outdated: 'bg-danger-soft text-danger',
} as const;

/** How a status is named; English has no translations, so its strings are shipped or edited. */
export function statusLabel(t: TFunction, locale: string, status: TranslationStatus) {
  const english = locale === SOURCE_LOCALE && status !== 'outdated';
  return t(`admin_language.status.${status}${english ? '_english' : ''}`);
}

/** The placeholders refusal, worded like the server's, checked before anything is sent. */
function placeholderError(english: string, value: string, t: TFunction) {
  const { missing, extra } = placeholderDifference(english, value);
  if (missing.length > 0)
    return t('admin_language.errors.placeholders_missing', { missing: missing.join(', ') });
  if (extra.length > 0) return t('admin_language.errors.placeholders_unknown', { unknown: extra.join(', ') });
  return null;
}

/** One string: its key, the English reference and the language's text, saved as the admin types. */
export function StringRow({ locale, entry }: { locale: string; entry: TranslationString }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const id = useId();
  const [value, setValue] = useState(entry.value);
  const [savedValue, setSavedValue] = useState(entry.value);
  const [state, setState] = useState<SaveState>('idle');
  const [serverError, setServerError] = useState<string | null>(null);
  // The save waiting for the typing to pause, with the text it will send.
  const pending = useRef<{ timer: ReturnType<typeof setTimeout>; text: string } | null>(null);
  const english = locale === SOURCE_LOCALE;
  const placeholders = placeholdersOf(entry.default);
  const refusalOf = (text: string) =>
    text.trim() === '' ? t('admin_language.errors.blank') : placeholderError(entry.default, text, t);
  // What the server would refuse is said at once and never sent.
  const error = (value === savedValue ? null : refusalOf(value)) ?? serverError;

  const cancelPending = () => {
    if (pending.current) clearTimeout(pending.current.timer);
    pending.current = null;
  };
  // A row that leaves the screen (another page, a filter) before its save sends it then: what was
  // typed is not lost.
  const flushOnUnmount = useEffectEvent(() => {
    const left = pending.current;
    cancelPending();
    if (left) void save(left.text);
  });
  useEffect(() => () => flushOnUnmount(), []);

  const store = (next: TranslationString) => {
    setSavedValue(next.value);
    client.setQueryData<TranslationString[]>(languageKeys.strings(locale), (list) =>
      list?.map((item) => (item.key === next.key ? next : item)),
    );
    void client.invalidateQueries({ queryKey: languageKeys.all, exact: true });
  };

  async function save(text: string) {
    setState('saving');
    try {
      store(await saveString(locale, entry.key, text));
      setState('saved');
    } catch (failure) {
      setState('error');
      setServerError(
        failure instanceof ApiError
          ? t(failure.fieldError('value') ?? failure.message)
          : t('popup_error.message'),
      );
    }
  }

  function change(text: string) {
    setValue(text);
    setServerError(null);
    setState('idle');
    cancelPending();
    if (text !== savedValue && refusalOf(text) === null)
      pending.current = {
        text,
        timer: setTimeout(() => {
          pending.current = null;
          void save(text);
        }, AUTOSAVE_DELAY_MS),
      };
  }

  async function revert() {
    cancelPending();
    setState('saving');
    try {
      await revertString(locale, entry.key);
      setValue(entry.default);
      setServerError(null);
      store({ ...entry, value: entry.default, status: 'default' });
      setState('saved');
    } catch {
      setState('error');
      setServerError(t('popup_error.message'));
    }
  }

  return (
    <li className="flex flex-col gap-2 px-4 py-4 sm:px-5" data-testid={`string-${entry.key}`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <code className="min-w-0 truncate font-mono text-xs text-muted" title={entry.key}>
          {entry.key}
        </code>
        <div className="flex items-center gap-2">
          <SaveIndicator state={state} />
          <span
            className={cn('rounded-full px-2 py-0.5 text-xs font-medium', STATUS_STYLE[entry.status])}
            title={entry.status === 'outdated' ? t('admin_language.outdated_hint') : undefined}
          >
            {statusLabel(t, locale, entry.status)}
          </span>
        </div>
      </div>
      {!english && (
        <p className="text-sm text-muted">
          <span className="sr-only">{t('admin_language.english')}: </span>
          {entry.default}
        </p>
      )}
      <label htmlFor={id} className="sr-only">
        {t('admin_language.value_label', { key: entry.key })}
      </label>
      <textarea
        id={id}
        value={value}
        rows={Math.min(6, Math.max(1, Math.ceil(value.length / 70)))}
        onChange={(event) => change(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className="w-full resize-y rounded-xl border border-line bg-surface px-3.5 py-2.5 text-sm leading-relaxed text-ink transition-colors hover:border-muted/40 focus:border-accent focus:ring-3 focus:ring-accent/15 focus:outline-none aria-invalid:border-danger aria-invalid:ring-danger/15"
      />
      <div className="flex flex-wrap items-start justify-between gap-2">
        {error ? (
          <p id={`${id}-error`} role="alert" className="flex items-center gap-1.5 text-sm text-danger">
            <AlertTriangle className="size-4 shrink-0" aria-hidden />
            {error}
          </p>
        ) : placeholders.length > 0 ? (
          <p className="text-xs text-muted">
            {t('admin_language.placeholders_hint', { placeholders: placeholders.join(' ') })}
          </p>
        ) : (
          <span />
        )}
        {entry.status !== 'default' && (
          <Button size="sm" variant="ghost" onClick={revert}>
            <RotateCcw className="size-3.5" aria-hidden />
            {t('admin_language.revert')}
          </Button>
        )}
      </div>
    </li>
  );
}

function SaveIndicator({ state }: { state: SaveState }) {
  const { t } = useTranslation();
  if (state === 'saving')
    return (
      <span className="flex items-center gap-1 text-xs text-muted" role="status">
        <Spinner className="size-3" />
        {t('admin_language.saving')}
      </span>
    );
  if (state === 'saved')
    return (
      <span className="flex items-center gap-1 text-xs text-success" role="status">
        <Check className="size-3.5" aria-hidden />
        {t('admin_language.saved')}
      </span>
    );
  return null;
}
