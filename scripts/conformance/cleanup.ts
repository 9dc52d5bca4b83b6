// What a run leaves on the server. Every record the run creates, through the set-up, the checks, Dredd's
// transactions or the workflows, is noted with the key that made it (`madeRecord`: a 2xx answer to a POST on a
// list the contract also reads, `POST /cards` beside `GET /cards`). Afterwards the records the contract lets a
// partner remove (a DELETE on the record's path: webhook endpoints, beneficiaries) are removed with that key, and
// the report says what was removed, what stays because the API removes none of it (customers, cards, payouts ...),
// and what could not be removed, with the answer. Only the run's own records are touched: a server shared by
// other runs or other people keeps theirs.
import { SETUP_GRAPH } from '../../src/setup/graph.ts';
import { bodyText, call, join } from './http.ts';
import { label, resourceAt } from './resources.ts';
import type { ConformanceConfig, MadeRecord } from './types.ts';
import type { ResponseValidator } from './validate-response.ts';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The operation on one record of a list (`/webhooks` -> `/webhooks/{code}`), if the contract has one. */
function itemTemplate(validator: ResponseValidator, collection: string): string | undefined {
  const item = new RegExp(`^${collection.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/\\{[^}]+\\}$`);
  return validator.operations().find((o) => item.test(o.path))?.path;
}

/**
 * The record a request made, when it made one: a 2xx answer to a POST on a list the contract also reads
 * (`POST /webhooks` beside `GET /webhooks`), whose data holds the new record's code.
 */
export function madeRecord(
  validator: ResponseValidator,
  method: string,
  collection: string,
  status: number,
  body: unknown,
  key: string,
): MadeRecord | undefined {
  if (method.toUpperCase() !== 'POST' || status < 200 || status > 299 || collection.includes('{')) return undefined;
  if (!validator.operation('GET', collection)) return undefined;
  const data = isRecord(body) ? body.data : undefined;
  if (!isRecord(data)) return undefined;
  const template = itemTemplate(validator, collection);
  const resource = template ? resourceAt(template) : undefined;
  const fields = [...(resource ? (SETUP_GRAPH.resources[resource].create?.id ?? []) : []), 'code', 'id'];
  const code = fields.map((f) => data[f]).find((v): v is string => typeof v === 'string');
  if (!code) return undefined;
  const path = template ? template.replace(/\{[^}]+\}$/, encodeURIComponent(code)) : collection;
  return { collection, template: template ?? collection, path, code, key };
}

/** What the report calls the records of a list (`/webhooks` -> `webhook endpoint`, `/wallets` -> `wallet`). */
function kindOf(record: MadeRecord): string {
  const resource = resourceAt(record.template);
  return resource ? label(resource) : record.collection.split('/').at(-1)!.replace(/s$/, '').replace(/-/g, ' ');
}

const plural = (n: number, noun: string) => `${n} ${n === 1 ? noun : noun.endsWith('y') ? `${noun.slice(0, -1)}ies` : `${noun}s`}`;

/** Counts by kind, in the order first met: `3 customers, 2 cards`. */
function tally(records: MadeRecord[]): string {
  const counts = new Map<string, number>();
  for (const r of records) counts.set(kindOf(r), (counts.get(kindOf(r)) ?? 0) + 1);
  return [...counts].map(([kind, n]) => plural(n, kind)).join(', ');
}

export interface CleanupReport {
  /** The report's lines. */
  lines: string[];
  /** Removals the server refused: the records stay. */
  problems: string[];
}

/**
 * Removes the run's records that the contract lets a partner remove (DELETE on the record's path), each with the
 * key that made it; a 404 means the run removed it already (a deletion check, a DELETE transaction). Returns
 * the report: removed, left behind, and what could not be removed.
 */
export async function cleanUp(
  config: ConformanceConfig,
  validator: ResponseValidator,
  made: readonly MadeRecord[],
): Promise<CleanupReport> {
  const seen = new Set<string>();
  const records = made.filter((r) => !seen.has(`${r.key} ${r.path}`) && seen.add(`${r.key} ${r.path}`));
  const removable = records.filter((r) => validator.operation('DELETE', r.template));
  const removed: MadeRecord[] = [];
  const gone: MadeRecord[] = [];
  const problems: string[] = [];
  for (const record of removable) {
    try {
      const answer = await call(join(config.server, record.path), record.key, 'DELETE');
      if (answer.status >= 200 && answer.status < 300) removed.push(record);
      else if (answer.status === 404) gone.push(record);
      else problems.push(`DELETE ${record.template} ${record.code} answered ${answer.status}: ${bodyText(answer.body, 300)}`);
    } catch (error) {
      problems.push(`DELETE ${record.template} ${record.code}: ${(error as Error).message}`);
    }
  }
  const kept = records.filter((r) => !removable.includes(r));
  const lines = [`Clean-up (run ${config.runId ?? 'without an id'}):`];
  if (records.length === 0) lines.push('  the run created no record');
  if (removed.length) lines.push(`  removed: ${tally(removed)}`);
  if (gone.length) lines.push(`  already removed during the run: ${tally(gone)}`);
  if (kept.length) lines.push(`  left behind (the API removes none of them): ${tally(kept)}`);
  for (const problem of problems) lines.push(`  could not remove: ${problem}`);
  return { lines, problems };
}
