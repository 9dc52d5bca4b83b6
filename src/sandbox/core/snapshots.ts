// Snapshots (sandbox-only, designed): the state of one account (the simulation API, per key) or of the whole
// sandbox (in-process, `sandbox.snapshot()`), kept in memory and put back on demand. A snapshot is its rows
// (./snapshot-rows.ts: records, balances, events, deliveries, idempotency keys, jobs, the account's settings), the
// clock (./snapshot-clock.ts) and what modules keep in memory, as parts: the core's (armed faults, delivery fault
// plans) registered here, a product's (the card provider's armed answers) declared by its product.ts's `snapshot`
// and registered by createSandbox under its folder's name. A restore waits for the webhook attempts under way, then
// puts everything back in one transaction; what it put back that is due runs at once (a pending delivery is
// attempted again). docs/sandbox.md, "Snapshots and fixtures", says what a restore does and does not undo.
import { randomBytes } from 'node:crypto';
import { BoundedMap } from './bounded-map.js';
import { SNAPSHOT_ACCOUNTS_IN_MEMORY, SNAPSHOTS_PER_ACCOUNT } from './bounds.js';
import type { ClockStates } from './snapshot-clock.js';
import { perCore, type SandboxCore } from './context.js';
import { clockState, restoreClock } from './snapshot-clock.js';
import { replaceRows, saveRows, type SavedRows, type SnapshotScope } from './snapshot-rows.js';

export type { SnapshotScope } from './snapshot-rows.js';

/** State a module keeps in memory, saved and put back with the rows. */
export interface SnapshotPart {
  save(scope: SnapshotScope): unknown;
  /** `saved` is undefined when the part was registered after the snapshot: it held nothing then. */
  restore(scope: SnapshotScope, saved: unknown): void;
}

export interface Snapshot {
  id: string;
  scope: SnapshotScope;
  /** The clock's time when it was taken. */
  createdAt: number;
  clock: ClockStates;
  rows: SavedRows;
  parts: Map<string, unknown>;
}

const scopeKey = (scope: SnapshotScope): number | 'sandbox' => (scope === 'sandbox' ? scope : scope.accountId);
const accountOf = (scope: SnapshotScope): number | undefined => (scope === 'sandbox' ? undefined : scope.accountId);

export class Snapshots {
  private readonly core: SandboxCore;
  private readonly parts = new Map<string, SnapshotPart>();
  /** The kept snapshots of each account (and of the sandbox), least recently used out at each level. */
  private readonly kept = new BoundedMap<number | 'sandbox', BoundedMap<string, Snapshot>>(SNAPSHOT_ACCOUNTS_IN_MEMORY);

  constructor(core: SandboxCore) {
    this.core = core;
    this.register('faults', {
      save: (scope) => core.faults.save(accountOf(scope)),
      restore: (scope, saved) => core.faults.restore((saved as ReturnType<typeof core.faults.save>) ?? new Map(), accountOf(scope)),
    });
    this.register('webhook-faults', {
      save: (scope) => core.delivery.faults.save(accountOf(scope)),
      restore: (scope, saved) => core.delivery.faults.restore((saved as Map<number, unknown>) ?? new Map(), accountOf(scope)),
    });
  }

  /**
   * Adds a module's in-memory state to every snapshot taken from now on (the core's own, or a product's declared
   * part). A name taken already stops the start: a second part would silently replace the first one's state.
   */
  register(name: string, part: SnapshotPart): void {
    if (this.parts.has(name)) throw new Error(`a snapshot part named ${name} is registered already`);
    this.parts.set(name, part);
  }

  /** Takes a snapshot of the scope without keeping it (the caller keeps it: a fixture's way back). */
  capture(scope: SnapshotScope): Snapshot {
    const { core } = this;
    return {
      id: `snap_${randomBytes(12).toString('hex')}`,
      scope,
      createdAt: core.clock.now(),
      clock: clockState(core, scope),
      rows: saveRows(core.db, scope),
      parts: new Map([...this.parts].map(([name, part]) => [name, part.save(scope)])),
    };
  }

  /** Takes a snapshot of the scope and keeps it (the least recently used one beyond SNAPSHOTS_PER_ACCOUNT goes). */
  take(scope: SnapshotScope): Snapshot {
    const snapshot = this.capture(scope);
    const kept = this.kept.get(scopeKey(scope)) ?? new BoundedMap<string, Snapshot>(SNAPSHOTS_PER_ACCOUNT);
    this.kept.set(scopeKey(scope), kept);
    kept.set(snapshot.id, snapshot);
    return snapshot;
  }

  /** A kept snapshot of the scope (another account's id is not found). */
  find(scope: SnapshotScope, id: string): Snapshot | undefined {
    return this.kept.get(scopeKey(scope))?.get(id);
  }

  /** The kept snapshots of the scope, oldest first. */
  list(scope: SnapshotScope): Snapshot[] {
    const kept = this.kept.get(scopeKey(scope));
    return kept ? [...kept.values()].sort((a, b) => a.createdAt - b.createdAt) : [];
  }

  delete(scope: SnapshotScope, id: string): boolean {
    return this.kept.get(scopeKey(scope))?.delete(id) ?? false;
  }

  /** Puts the snapshot's state back (after the webhook attempts under way have recorded their outcome). */
  async restore(snapshot: Snapshot): Promise<void> {
    const { core } = this;
    const { scope } = snapshot;
    await core.scheduler.settle();
    core.db.transaction(() => {
      replaceRows(core.db, scope, snapshot.rows);
      restoreClock(core, scope, snapshot.clock);
    });
    for (const [name, part] of this.parts) part.restore(scope, snapshot.parts.get(name));
    if (scope === 'sandbox') {
      core.accounts.forget();
      core.products.forget();
    } else {
      core.accounts.forget(core.accounts.byId(scope.accountId).apiKey);
      core.products.forget(scope.accountId);
    }
    core.scheduler.poke();
  }
}

/** The snapshots of a sandbox. */
export const snapshotsOf = perCore((core) => new Snapshots(core));

/** `sandbox.snapshot()` and `sandbox.restore(id)` of an in-process sandbox: the whole sandbox, every account and the clock. */
export function wholeSandboxSnapshots(core: SandboxCore): { snapshot(): string; restore(id: string): Promise<void> } {
  return {
    snapshot: () => snapshotsOf(core).take('sandbox').id,
    async restore(id) {
      const snapshot = snapshotsOf(core).find('sandbox', id);
      if (!snapshot)
        throw new Error(
          `no snapshot ${id} of this sandbox: an id of sandbox.snapshot(), which keeps its ${SNAPSHOTS_PER_ACCOUNT} most recently used`,
        );
      await snapshotsOf(core).restore(snapshot);
    },
  };
}
