// Every list states its order in its description and its success examples follow it; the lists a reconciler
// reads also take `created_from`/`created_to` and show at least two items (most recent first, then the
// tie-break key).
import { describe, expect, it } from 'vitest';
import { operations } from './checklist.ts';
import { isObject, type Json, type JsonObject } from '../../scripts/lib/pointer.ts';
import { contractModel } from '../../src/contract/model.ts';
import { built, expectNoProblems } from './helpers.ts';

/** operationId -> the time field the list is sorted on (descending) and its tie-break field (descending). */
const RECONCILER_LISTS: Record<string, { time: string; tie: string }> = {
  listCardTransactions: { time: 'date', tie: 'id' },
  listBalanceTransactions: { time: 'created_at', tie: 'id' },
  listPayouts: { time: 'created_at', tie: 'code' },
  listWebhookEndpointDeliveries: { time: 'created_at', tie: 'code' },
  listEvents: { time: 'created_at', tie: 'id' },
};

/** The other lists: the same order, without the date filters. */
const OTHER_LISTS: Record<string, { time: string; tie: string }> = {
  listCards: { time: 'created_at', tie: 'code' },
  listCustomers: { time: 'created_at', tie: 'customer_code' },
  listWallets: { time: 'created_at', tie: 'id' },
  listWalletWithdrawals: { time: 'requested_at', tie: 'code' },
  listVirtualAccounts: { time: 'created_at', tie: 'code' },
  listGiftCardOrders: { time: 'created_at', tie: 'code' },
  listBeneficiaries: { time: 'created_at', tie: 'code' },
  listWebhookEndpoints: { time: 'created_at', tie: 'code' },
};

/**
 * Lists whose example keeps a single item on this branch: the card, customer and gift card order shapes are
 * being extended on the resources branch (c11-resources), which owns their examples.
 */
const SINGLE_ITEM_EXAMPLES = new Set(['listCards', 'listCustomers', 'listGiftCardOrders']);

/** The order problems of one list of items: each item must come at or after the next one, newest first. */
function orderProblems(items: Json[], time: string, tie: string): string[] {
  const problems: string[] = [];
  for (let i = 1; i < items.length; i++) {
    const [a, b] = [items[i - 1], items[i]];
    if (!isObject(a) || !isObject(b)) return [`item ${i} is not an object`];
    const [ta, tb] = [Date.parse(String(a[time])), Date.parse(String(b[time]))];
    if (Number.isNaN(ta) || Number.isNaN(tb)) problems.push(`items ${i - 1} and ${i}: ${time} is not a date-time`);
    else if (ta < tb || (ta === tb && String(a[tie]) < String(b[tie]))) {
      problems.push(`item ${i} (${time} ${String(b[time])}) comes after item ${i - 1} (${time} ${String(a[time])}): not most recent first`);
    }
  }
  return problems;
}

describe('lists a reconciler can use', () => {
  const { openapi } = built();
  const lists = operations(openapi).filter((o) => String(o.op['operationId']) in RECONCILER_LISTS);

  it('are all in the contract', () => {
    expect(lists.map((o) => o.op['operationId']).sort()).toEqual(Object.keys(RECONCILER_LISTS).sort());
  });

  it('take created_from and created_to, and state their order', () => {
    const problems: string[] = [];
    for (const { op } of lists) {
      // The shared parameters themselves: their pointers are the components'.
      const shared = contractModel(openapi)
        .operation(String(op['operationId']))!
        .parameters.map((p) => p.pointer);
      for (const name of ['CreatedFrom', 'CreatedTo']) {
        if (!shared.includes(`/components/parameters/${name}`)) problems.push(`${String(op['operationId'])}: no ${name} parameter`);
      }
      const { time, tie } = RECONCILER_LISTS[String(op['operationId'])]!;
      const description = String(op['description'] ?? '');
      if (
        !/most recent first/i.test(description) ||
        !description.includes(`\`${time}\` descending`) ||
        !description.includes(`\`${tie}\` descending`)
      ) {
        problems.push(`${String(op['operationId'])}: the description does not state "most recent first" by \`${time}\`, then \`${tie}\``);
      }
    }
    expectNoProblems(problems);
  });

  it('show at least two items in their examples, in the stated order', () => {
    const problems: string[] = [];
    for (const { op } of lists) {
      const id = String(op['operationId']);
      for (const [name, items] of successExamples(openapi, op)) {
        if (items.length < 2) problems.push(`${id} ${name}: ${items.length} item(s); show at least two`);
        const { time, tie } = RECONCILER_LISTS[id]!;
        problems.push(...orderProblems(items, time, tie).map((p) => `${id} ${name}: ${p}`));
      }
    }
    expectNoProblems(problems);
  });

  it('the order check rejects a list in the wrong order', () => {
    const older = { created_at: '2026-03-01T00:00:00Z', code: 'a' };
    const newer = { created_at: '2026-03-02T00:00:00Z', code: 'b' };
    expect(orderProblems([newer, older], 'created_at', 'code')).toEqual([]);
    expect(orderProblems([older, newer], 'created_at', 'code')).toHaveLength(1);
    expect(
      orderProblems(
        [
          { ...older, code: 'a' },
          { ...older, code: 'b' },
        ],
        'created_at',
        'code',
      ),
    ).toHaveLength(1);
  });
});

function successExamples(openapi: JsonObject, op: JsonObject): [string, Json[]][] {
  const examples = contractModel(openapi).operation(String(op['operationId']))?.response(200)?.json?.examples ?? [];
  return examples.map(({ name, value }) => [name, isObject(value) && Array.isArray(value['data']) ? value['data'] : []]);
}

describe('every other list', () => {
  const { openapi } = built();
  const lists = operations(openapi).filter((o) => String(o.op['operationId']) in OTHER_LISTS);

  it('states its order, and its examples follow it', () => {
    expect(lists).toHaveLength(Object.keys(OTHER_LISTS).length);
    const problems: string[] = [];
    for (const { op } of lists) {
      const id = String(op['operationId']);
      const { time, tie } = OTHER_LISTS[id]!;
      const description = String(op['description'] ?? '');
      if (
        !/most recent first/i.test(description) ||
        !description.includes(`\`${time}\` descending`) ||
        !description.includes(`\`${tie}\` descending`)
      ) {
        problems.push(`${id}: the description does not state "most recent first" by \`${time}\`, then \`${tie}\``);
      }
      for (const [name, items] of successExamples(openapi, op)) {
        if (items.length < 2 && !SINGLE_ITEM_EXAMPLES.has(id)) problems.push(`${id} ${name}: ${items.length} item(s); show at least two`);
        problems.push(...orderProblems(items, time, tie).map((p) => `${id} ${name}: ${p}`));
      }
    }
    expectNoProblems(problems);
  });

  it('the ops balances come in the stated order of types', () => {
    const balances = operations(openapi).find((o) => o.op['operationId'] === 'listBalances')!;
    const stated = /\*\*Order:\*\* by type, always ((?:`\w+`(?:, )?)+)/.exec(String(balances.op['description']))?.[1];
    expect(stated, 'listBalances states the order of types').toBeDefined();
    const order = [...stated!.matchAll(/`(\w+)`/g)].map((m) => m[1]);
    for (const [name, items] of successExamples(openapi, balances.op)) {
      const types = items.map((b) => (isObject(b) ? b['type'] : undefined));
      expect(types, name).toEqual(order.filter((t) => types.includes(t)));
    }
  });
});
