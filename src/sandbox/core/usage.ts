// Plan usage counted per calendar month of the clock (UTC `YYYY-MM`), never reset.
import type { Db } from './store.js';

export const periodOf = (ms: number): string => new Date(ms).toISOString().slice(0, 7);

export function usage(db: Db, accountId: number, period: string, metric: string): number {
  return (
    db.get<{ value: number }>('SELECT value FROM usage WHERE account_id = ? AND period = ? AND metric = ?', accountId, period, metric)
      ?.value ?? 0
  );
}

export function addUsage(db: Db, accountId: number, period: string, metric: string, delta: number): void {
  db.run(
    'INSERT INTO usage (account_id, period, metric, value) VALUES (?, ?, ?, ?) ON CONFLICT (account_id, period, metric) DO UPDATE SET value = value + excluded.value',
    accountId,
    period,
    metric,
    delta,
  );
}
