// The events as the outbox stored them (core/outbox.ts owns the table), read back in their contract shape.
import type { components } from '../../../generated/openapi.js';
import type { SandboxCore } from '../core/context.js';
import type { EventEnvelope } from '../core/outbox.js';

export interface EventRow {
  id: string;
  type: string;
  body: string;
  created_at: number;
}

export const eventOf = (r: EventRow) => JSON.parse(r.body) as EventEnvelope as components['schemas']['Event'];

/** The account's event created at or after `since`. */
export function findEvent(core: SandboxCore, accountId: number, id: string, since: number): EventRow | undefined {
  return core.db.get<EventRow>(
    'SELECT id, type, body, created_at FROM events WHERE account_id = ? AND id = ? AND created_at >= ?',
    accountId,
    id,
    since,
  );
}

/** One page of the account's events created in [from, to), of one type when given, most recent first. */
export function eventPage(
  core: SandboxCore,
  accountId: number,
  filter: { from: number; to: number; type?: string },
  limit: number,
  offset: number,
): { rows: EventRow[]; total: number } {
  const where = ['account_id = ?', 'created_at >= ?', 'created_at < ?'];
  const args = [accountId, filter.from, filter.to] as (string | number)[];
  if (filter.type !== undefined) {
    where.push('type = ?');
    args.push(filter.type);
  }
  const rows = core.db.all<EventRow>(
    `SELECT id, type, body, created_at FROM events WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
    ...args,
    limit,
    offset,
  );
  const total = core.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM events WHERE ${where.join(' AND ')}`, ...args)!.n;
  return { rows, total };
}
