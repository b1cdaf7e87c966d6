import { SETTINGS_DEBOUNCE_MS } from '@atelier/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSettingsUpdater, isSendableSetting } from '../../src/features/session/settings-updater';

describe('settings updates', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function setup() {
    const sent: [string, string][] = [];
    const update = createSettingsUpdater(async (name, value) => {
      sent.push([name, value]);
    });
    return { sent, update };
  }

  it('sends only the last value of a burst, once the debounce has passed', () => {
    const { sent, update } = setup();
    update('theme_mode', 'dark');
    update('theme_mode', 'light');
    vi.advanceTimersByTime(SETTINGS_DEBOUNCE_MS - 1);
    update('theme_mode', 'dark');
    vi.advanceTimersByTime(SETTINGS_DEBOUNCE_MS - 1);
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual([['theme_mode', 'dark']]);
  });

  it('debounces each setting on its own', () => {
    const { sent, update } = setup();
    update('theme_mode', 'dark');
    update('emoji_type', 'applemoji');
    vi.advanceTimersByTime(SETTINGS_DEBOUNCE_MS);
    expect(sent).toEqual([
      ['theme_mode', 'dark'],
      ['emoji_type', 'applemoji'],
    ]);
  });

  it('never sends empty, blank or object values', () => {
    const { sent, update } = setup();
    update('first_name', '');
    update('first_name', '   ');
    update('first_name', null);
    update('first_name', undefined);
    update('first_name', { nested: true });
    vi.advanceTimersByTime(SETTINGS_DEBOUNCE_MS * 2);
    expect(sent).toEqual([]);
  });

  it('sends a blank value when forced', () => {
    const { sent, update } = setup();
    update('last_name', '', { force: true });
    vi.advanceTimersByTime(SETTINGS_DEBOUNCE_MS);
    expect(sent).toEqual([['last_name', '']]);
  });

  it('judges values by the description’s rule', () => {
    expect(isSendableSetting('dark')).toBe(true);
    expect(isSendableSetting(0)).toBe(true);
    expect(isSendableSetting(false)).toBe(true);
    expect(isSendableSetting(' ')).toBe(false);
    expect(isSendableSetting([])).toBe(false);
  });
});
