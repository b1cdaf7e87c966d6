import { SETTINGS_DEBOUNCE_MS } from '@atelier/contracts/constants';

/** Sends one setting; it reports its own failures (the updater fires and forgets). */
export type SendSetting = (name: string, value: string) => Promise<unknown>;

/** The description's rule: only non-empty, non-blank, non-object values are sent, unless forced. */
export function isSendableSetting(value: unknown): value is string | number | boolean {
  if (value === null || value === undefined || typeof value === 'object') return false;
  return String(value).trim() !== '';
}

/**
 * Debounces setting updates by SETTINGS_DEBOUNCE_MS per setting name: a burst of changes (a theme
 * toggled three times) sends the last value once.
 */
export function createSettingsUpdater(send: SendSetting, delayMs = SETTINGS_DEBOUNCE_MS) {
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  return function update(name: string, value: unknown, options: { force?: boolean } = {}) {
    if (!options.force && !isSendableSetting(value)) return;
    const pending = timers.get(name);
    if (pending) clearTimeout(pending);
    timers.set(
      name,
      setTimeout(() => {
        timers.delete(name);
        void send(name, value === null || value === undefined ? '' : String(value));
      }, delayMs),
    );
  };
}
