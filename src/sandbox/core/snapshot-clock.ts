// The clock in a snapshot, in one place. The sandbox has one clock, shared by every account: a sandbox snapshot
// keeps it and its restore puts it back, with every row that read it. An account's snapshot records it, but its
// restore leaves it where it is: moving the shared clock back would move every other account's time back, under
// records they made meanwhile. (Per-account clocks restore it here.)
import type { ClockState } from './clock.js';
import type { SandboxCore } from './context.js';
import type { SnapshotScope } from './snapshot-rows.js';

export function clockState(core: SandboxCore, _scope: SnapshotScope): ClockState {
  return core.clock.state();
}

export function restoreClock(core: SandboxCore, scope: SnapshotScope, state: ClockState): void {
  if (scope === 'sandbox') core.clock.restore(state);
}
