import { useState } from 'react';
import { readLocal, writeLocal } from '../../lib/local-store';

/** A choice remembered in this browser (like the file browser's sort and view), kept to the allowed values. */
export function useLocalPreference<T extends string>(
  key: string,
  fallback: T,
  allowed: readonly T[],
): [T, (value: T) => void] {
  const [value, setValue] = useState<T>(() => {
    const stored = readLocal(key);
    return stored && (allowed as readonly string[]).includes(stored) ? (stored as T) : fallback;
  });
  return [
    value,
    (next) => {
      writeLocal(key, next);
      setValue(next);
    },
  ];
}
