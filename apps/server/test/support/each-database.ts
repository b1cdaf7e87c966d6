import { describe } from 'vitest';
import { databaseKinds, type DatabaseKind } from './databases';

/** Runs a suite once per database kind available (SQLite, and PostgreSQL when configured). */
export function describeEachDatabase(name: string, suite: (kind: DatabaseKind) => void): void {
  for (const kind of databaseKinds) describe(`${name} [${kind}]`, () => suite(kind));
}
