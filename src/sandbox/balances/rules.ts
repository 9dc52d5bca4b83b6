// The ops balances' rule of their own: every 4 hours of the clock, `balance.low_balance` for each balance below
// its threshold, for every account (the debits, credits and their events are the core's ledger).
import type { SandboxCore } from '../core/context.js';

export const LOW_BALANCE_CHECK_JOB = 'balance.low_balance_check';
export const LOW_BALANCE_CHECK_EVERY_MS = 4 * 3_600_000;

/** Registers the check and schedules its first run (once per store: a reopened file keeps its job). */
export function scheduleLowBalanceCheck(core: SandboxCore): void {
  const { db, clock, ledger, scheduler } = core;
  scheduler.register(LOW_BALANCE_CHECK_JOB, () => {
    for (const { id } of db.all<{ id: number }>('SELECT id FROM accounts WHERE revoked = 0 ORDER BY id')) {
      const account = core.accounts.byId(id);
      for (const b of ledger.balances(id)) if (b.minor < b.low_threshold_minor) ledger.lowBalance(account, b.type);
    }
    scheduler.schedule(LOW_BALANCE_CHECK_JOB, clock.now() + LOW_BALANCE_CHECK_EVERY_MS, {});
  });
  if (!db.get('SELECT id FROM jobs WHERE kind = ?', LOW_BALANCE_CHECK_JOB)) {
    scheduler.schedule(LOW_BALANCE_CHECK_JOB, clock.now() + LOW_BALANCE_CHECK_EVERY_MS, {});
  }
}
