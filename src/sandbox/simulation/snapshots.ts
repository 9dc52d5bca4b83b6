// The simulation API's snapshots and fixtures (`/sandbox/snapshots`, `/sandbox/fixtures`), per key: the state of
// the key's account saved and put back (../core/snapshots.ts), and the records of a fixture created through the
// sandbox's own operations (../fixtures/load.ts), each step sent to the sandbox itself with the same key.
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { components as simulation, operations } from '../../../generated/sandbox.js';
import type { Account } from '../core/accounts.js';
import type { Handlers, SandboxCore } from '../core/context.js';
import { notFound } from '../core/errors.js';
import { snapshotsOf, type Snapshot } from '../core/snapshots.js';
import type { Send } from '../fixtures/load.js';
import { INTERNAL_REQUEST } from '../http/auth.js';

/** `server.inject` of the sandbox the simulation API is served by. */
export type Inject = (options: InjectOptions) => Promise<LightMyRequestResponse>;

/** A step's request to the sandbox itself, with the account's key, outside the rate limit. */
export function sendAs(inject: Inject, account: Account): Send {
  return async (method, url, body) => {
    const res = await inject({
      method: method as 'GET',
      url,
      headers: {
        authorization: `Bearer ${account.apiKey}`,
        [INTERNAL_REQUEST.header]: INTERNAL_REQUEST.value,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    return { status: res.statusCode, body: JSON.parse(res.body || 'null') as unknown };
  };
}

export function snapshotHandlers(core: SandboxCore, inject: Inject): Handlers<operations> {
  const snapshots = snapshotsOf(core);
  const view = (s: Snapshot): simulation['schemas']['Snapshot'] => ({
    id: s.id,
    created_at: core.clock.iso(s.createdAt),
    rows: s.rows.count,
  });
  const kept = (account: Account, id: string): Snapshot => {
    const snapshot = snapshots.find({ accountId: account.id }, id);
    if (!snapshot) throw notFound(`Snapshot ${id} of this key's account`);
    return snapshot;
  };
  return {
    createSnapshot: ({ account }) => ({ data: view(snapshots.take({ accountId: account.id })) }),
    listSnapshots: ({ account }) => ({ data: snapshots.list({ accountId: account.id }).map(view) }),
    deleteSnapshot({ account, params }) {
      const snapshot = kept(account, params.snapshot_id);
      snapshots.delete({ accountId: account.id }, snapshot.id);
      return { data: view(snapshot) };
    },
    async restoreSnapshot({ account, params }) {
      const snapshot = kept(account, params.snapshot_id);
      await snapshots.restore(snapshot);
      return { data: view(snapshot) };
    },
    async loadFixture({ account, body }) {
      // Imported at the first fixture: a start without fixtures does without the loader and the seed's examples.
      const { loadFixture } = await import('../fixtures/load.js');
      return { data: await loadFixture(core, account, body, sendAs(inject, account)) };
    },
  };
}
