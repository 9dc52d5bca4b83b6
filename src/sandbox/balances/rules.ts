// The ops balances' rule of their own: every 4 hours of an account's clock, `balance.low_balance` for each of
// its balances below its threshold (the debits, credits and their events are the core's ledger). Each account
// has its own check, a job on its clock, so that one account's advance checks its balances only.
import type { SandboxCore } from '../core/context.js';
import { defineJob } from '../core/scheduler.js';
import { accountsWithoutJob } from './repository.js';

export const LOW_BALANCE_CHECK_EVERY_MS = 4 * 3_600_000;

/** The check of one account, then its next; without an account, the one check of a file made before per-account checks. */
export const LOW_BALANCE_CHECK_JOB = defineJob<{ account?: number }>('balance.low_balance_check', (core, { account }) => {
  if (account !== undefined) {
    check(core, account);
    scheduleNextCheck(core, account);
    return;
  }
  // Each account of that file gets its own check from here.
  for (const id of accountsWithoutJob(core, LOW_BALANCE_CHECK_JOB.kind)) {
    check(core, id);
    scheduleNextCheck(core, id);
  }
});

function check(core: SandboxCore, id: number): void {
  const account = core.accounts.byId(id);
  if (account.revoked) return;
  for (const b of core.ledger.balances(id)) if (b.minor < b.low_threshold_minor) core.ledger.lowBalance(account, b.type);
}

function scheduleNextCheck(core: SandboxCore, id: number): void {
  const { clock, scheduler } = core;
  clock.within(id, () => scheduler.schedule(LOW_BALANCE_CHECK_JOB, clock.now() + LOW_BALANCE_CHECK_EVERY_MS, { account: id }));
}

/** Schedules the first check of each account made from now on (a reopened file keeps its jobs). */
export function scheduleLowBalanceChecks(core: SandboxCore): void {
  core.accounts.onCreated((account) => scheduleNextCheck(core, account.id));
}
