import { useState } from 'react';

/** A choice remembered in this browser (like the file browser's sort and view), kept to the allowed values. */
export function useLocalPreference<T extends string>(
  key: string,
  fallback: T,
  allowed: readonly T[],
): [T, (value: T) => void] {
  const [value, setValue] = useState<T>(() => {
    const stored = typeof localStorage === 'undefined' ? null : localStorage.getItem(key);
    return stored && (allowed as readonly string[]).includes(stored) ? (stored as T) : fallback;
  });
  return [
    value,
    (next) => {
      localStorage.setItem(key, next);
      setValue(next);
    },
  ];
}
