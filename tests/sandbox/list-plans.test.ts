// Every list of the partner API costs what its own account's rows cost, not what the whole database holds:
// each statement a list runs is read through SQLite's EXPLAIN QUERY PLAN (on the sandbox's own connection,
// sandbox.core.db) and must find its rows through an index (no `SCAN` of a table) in the order the list gives
// them (no `USE TEMP B-TREE FOR ORDER BY`). The plans do not depend on the rows held, so an empty table and a
// full one read alike: the indexes are in the tables' DDL (core/store.ts and each product's tables.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_CODES } from '../../src/sandbox/index.ts';
import type { SqlValue } from '../../src/sandbox/core/store.ts';
import { MODEL, startTestSandbox, type TestSandbox } from './support.ts';

const KEY = 'sk_test_list_plans';
const { customer, card, webhookEndpoint } = EXAMPLE_CODES;
const WINDOW = 'created_from=2020-01-01T00:00:00Z&created_to=2100-01-01T00:00:00Z';

/** The requests that run each list operation, without and with each of its filters. */
const CASES: Record<string, string[]> = {
  listCards: ['/v1/cards', `/v1/cards?customer_code=${customer}&page=2&limit=5`],
  listCardTransactions: [`/v1/cards/${card}/transactions`, `/v1/cards/${card}/transactions?${WINDOW}`],
  listCustomers: [
    '/v1/customers',
    '/v1/customers?status=active',
    '/v1/customers?status=active&verification_level=full&external_reference=x',
  ],
  listBalances: ['/v1/balance'],
  listBalanceTransactions: ['/v1/balance/cards_visa/transactions', `/v1/balance/others/transactions?${WINDOW}`],
  listWallets: ['/v1/wallets', `/v1/wallets?customer_code=${customer}`],
  listWalletWithdrawals: ['/v1/wallets/withdrawals'],
  listVirtualAccounts: ['/v1/virtual-accounts', `/v1/virtual-accounts?customer_code=${customer}`],
  listGiftCardProducts: ['/api/v1/gift-cards/products'],
  listGiftCardOrders: ['/api/v1/gift-cards/orders', `/api/v1/gift-cards/orders?customer_code=${customer}`],
  listPayouts: ['/v1/payouts', `/v1/payouts?customer_code=${customer}&status=completed&${WINDOW}`],
  listBeneficiaries: ['/v1/payouts/beneficiaries', `/v1/payouts/beneficiaries?customer_code=${customer}`],
  listWebhookEndpoints: ['/v1/webhooks'],
  listWebhookEndpointDeliveries: [`/v1/webhooks/${webhookEndpoint}/deliveries`, `/v1/webhooks/${webhookEndpoint}/deliveries?${WINDOW}`],
  listEvents: ['/v1/events', '/v1/events?type=card.frozen', `/v1/events?${WINDOW}`],
};

/** Lists the sandbox answers from memory (the gift card catalogue): they run no statement. */
const IN_MEMORY = new Set(['listGiftCardProducts']);

/** The operations whose answer is a list: a GET whose `data` is an array. */
function listOperations(): string[] {
  const ids: string[] = [];
  for (const op of MODEL.operations.filter((o) => o.method === 'get')) {
    const text = JSON.stringify((op.node.responses as Record<string, unknown> | undefined)?.['200'] ?? {});
    if (/"data":\{"type":"array"/.test(text) || /PaginatedEnvelope/.test(text)) ids.push(op.operationId);
  }
  return ids.sort();
}

interface Statement {
  sql: string;
  params: SqlValue[];
}

describe('the plan of every list query', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    // The example records: a customer, a card, an endpoint ... that the lists' path parameters and filters name.
    sandbox = await startTestSandbox({ seedExamples: KEY });
  });
  afterAll(() => sandbox.close());

  /** The statements the sandbox runs while it answers `path`, read on its own connection. */
  async function statementsOf(path: string): Promise<Statement[]> {
    const db = sandbox.core.db;
    const seen: Statement[] = [];
    const { all, get } = db;
    db.all = ((sql: string, ...params: Statement['params']) => {
      seen.push({ sql, params });
      return all.call(db, sql, ...params);
    }) as never;
    db.get = ((sql: string, ...params: Statement['params']) => {
      seen.push({ sql, params });
      return get.call(db, sql, ...params);
    }) as never;
    try {
      const answer = await sandbox.request('GET', path, { key: KEY });
      expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(200);
    } finally {
      db.all = all;
      db.get = get;
    }
    return seen.filter((s) => /^\s*SELECT\b/i.test(s.sql));
  }

  const planOf = (s: Statement): string[] =>
    sandbox.core.db.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${s.sql}`, ...s.params).map((row) => row.detail);

  it('every list operation of the contract has its cases here', () => {
    expect(Object.keys(CASES).sort()).toEqual(listOperations());
  });

  for (const [operationId, paths] of Object.entries(CASES)) {
    it(`${operationId}: no table scanned, no sort of its rows`, async () => {
      const problems: string[] = [];
      for (const path of paths) {
        const statements = await statementsOf(path);
        if (!IN_MEMORY.has(operationId)) expect(statements.length, `${path} ran no SELECT`).toBeGreaterThan(0);
        for (const statement of statements) {
          const plan = planOf(statement);
          const bad = plan.filter((detail) => /^SCAN\b/.test(detail) || /TEMP B-TREE FOR ORDER BY/.test(detail));
          if (bad.length > 0) problems.push(`${path}\n  ${statement.sql.replace(/\s+/g, ' ')}\n  ${plan.join('\n  ')}`);
        }
      }
      expect(problems, problems.join('\n')).toEqual([]);
      expect(sandbox.problems).toEqual([]);
    });
  }
});
