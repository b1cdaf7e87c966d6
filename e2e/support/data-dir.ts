import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from '@playwright/test';
import { loadSqliteDriver } from '../../apps/server/src/db/sqlite-driver';
import { serverFile } from './artifacts';

/** Where serve.mjs writes a server's data directory (the config hands it this path). */
export const dataDirFile = (server: number): string => serverFile(server, 'data-dir.txt');

/** The data directory of the running test's server. */
export const serverDataDir = (): string =>
  readFileSync(dataDirFile(test.info().parallelIndex), 'utf8').trim();

/**
 * Leaves a metered account as three reminders of an unpaid settlement leave it: a period's use the
 * balance did not cover, restricted now. Reaching it through the daily run takes a month and six
 * days of the clock, which the API tests move (apps/server/test/billing/metered.test.ts); the
 * browser journey starts from the state those days produce, written into the server's database.
 */
export function leaveUnpaidSettlement(userId: string, amountMinor: number, currency: string): void {
  const dataDir = serverDataDir();
  // The build of the SQLite driver this Node runs, chosen as the server chooses it.
  const Database = loadSqliteDriver();
  const db = new Database(path.join(dataDir, 'atelier.sqlite'));
  try {
    db.pragma('busy_timeout = 5000');
    const subscription = db
      .prepare("select id, created_at from subscriptions where user_id = ? and status <> 'completed'")
      .get(userId) as { id: string; created_at: string };
    const now = new Date().toISOString();
    const periodStart = new Date(Date.now() - 37 * 24 * 60 * 60 * 1000).toISOString();
    const periodEnd = new Date(Date.now() - 7 * 24 * 60 * 60 * 1000).toISOString();
    db.prepare(
      `insert into metered_settlements (id, subscription_id, user_id, period_start, period_end, amount_minor,
        currency, status, reminders, notified_at, restricted_at, transaction_id, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, 'unpaid', 3, ?, ?, null, ?, ?)`,
    ).run(
      randomUUID(),
      subscription.id,
      userId,
      periodStart,
      periodEnd,
      amountMinor,
      currency,
      now,
      now,
      now,
      now,
    );
  } finally {
    db.close();
  }
}
