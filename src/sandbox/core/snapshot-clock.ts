// The clocks in a snapshot, in one place. An account's snapshot keeps its account's clock, and its restore puts
// that clock back with the rows that read it. A sandbox snapshot keeps every clock (the sandbox's own and each
// account's). With one shared clock (`clock: 'shared'`), an account's restore leaves the clock where it is:
// moving it back would move every other account's time back, under records they made meanwhile.
import type { ClockSnapshot } from './clock.js';
import { SANDBOX_CLOCK } from './clock.js';
import type { SandboxCore } from './context.js';
import type { SnapshotScope } from './snapshot-rows.js';

/**
 * The state of each clock the scope holds, by owner (an account id, or SANDBOX_CLOCK); null for an account's clock
 * that has not moved apart from the sandbox's own (no row of its own), which its restore leaves so.
 */
export type ClockStates = Record<number, ClockSnapshot | null>;

export function clockState(core: SandboxCore, scope: SnapshotScope): ClockStates {
  const owners = scope === 'sandbox' ? clockOwners(core) : [scope.accountId];
  return Object.fromEntries(
    owners.map((owner) => [owner, owner === SANDBOX_CLOCK || core.clock.hasOwnRow(owner) ? core.clock.state(owner) : null]),
  );
}

/** Call after the rows are back: a sandbox's restore drops the clocks of the accounts it removed. */
export function restoreClock(core: SandboxCore, scope: SnapshotScope, states: ClockStates): void {
  if (scope !== 'sandbox' && core.clock.mode === 'shared') return;
  for (const [owner, state] of Object.entries(states)) {
    if (state === null) core.clock.reset(Number(owner));
    else core.clock.restore(Number(owner), state);
  }
  if (scope === 'sandbox') core.clock.keepOnly(new Set(Object.keys(states).map(Number)));
}

/** The sandbox's own clock and every account's (an account's clock has a row only once it has moved apart). */
function clockOwners(core: SandboxCore): number[] {
  const accounts = core.db.all<{ id: number }>('SELECT id FROM accounts').map((r) => r.id);
  return [SANDBOX_CLOCK, ...accounts];
}
