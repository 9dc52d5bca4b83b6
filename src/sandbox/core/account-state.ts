// Copies of per-account state kept in memory (armed faults, delivery fault plans), for snapshots: the entries of one
// account, or of every account, copied out and put back. Copied both ways, so that a snapshot restored twice
// starts from the same state each time.

/** A copy of the entry of `accountId`, or of every entry when it is undefined. */
export function copyOf<T>(state: Map<number, T>, accountId: number | undefined, copy: (value: T) => T): Map<number, T> {
  const entries = accountId === undefined ? [...state] : state.has(accountId) ? [[accountId, state.get(accountId)!] as const] : [];
  return new Map(entries.map(([id, value]) => [id, copy(value)]));
}

/** Replaces the entry of `accountId` (or every entry) by the saved copy. */
export function putBack<T>(state: Map<number, T>, saved: Map<number, T>, accountId: number | undefined, copy: (value: T) => T): void {
  if (accountId === undefined) state.clear();
  else state.delete(accountId);
  for (const [id, value] of saved) state.set(id, copy(value));
}
