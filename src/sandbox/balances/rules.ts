// The ops balances' rule of their own: every 4 hours of an account's clock, `balance.low_balance` for each of
// its balances below its threshold (the debits, credits and their events are the core's ledger). Each account
// has its own check, a job on its clock, so that one account's advance checks its balances only.
import type { SandboxCore } from '../core/context.js';
import { accountsWithoutJob } from './repository.js';

export const LOW_BALANCE_CHECK_JOB = 'balance.low_balance_check';
export const LOW_BALANCE_CHECK_EVERY_MS = 4 * 3_600_000;

/** Registers the check, and schedules the first run of each account made from now on (a reopened file keeps its jobs). */
export function scheduleLowBalanceCheck(core: SandboxCore): void {
  const { clock, ledger, scheduler } = core;
  const check = (id: number) => {
    const account = core.accounts.byId(id);
    if (account.revoked) return;
    for (const b of ledger.balances(id)) if (b.minor < b.low_threshold_minor) ledger.lowBalance(account, b.type);
  };
  const next = (id: number) =>
    clock.within(id, () => scheduler.schedule(LOW_BALANCE_CHECK_JOB, clock.now() + LOW_BALANCE_CHECK_EVERY_MS, { account: id }));
  scheduler.register(LOW_BALANCE_CHECK_JOB, (payload) => {
    if (typeof payload.account === 'number') {
      check(payload.account);
      next(payload.account);
      return;
    }
    // The one check for every account of a file made before: each account gets its own from here.
    for (const id of accountsWithoutJob(core, LOW_BALANCE_CHECK_JOB)) {
      check(id);
      next(id);
    }
  });
  core.accounts.onCreated((account) => next(account.id));
}
