// The contract's example gift card products in the sandbox's catalogue (gcp_000123, gcp_000456, in EUR), so
// that the reference's examples and code samples find them; an order of a EUR product debits `gift_cards`
// (USD) with its value at the sandbox's fixed rate, and a refund credits back exactly that.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/lib/paths.ts';
import { contractModel } from '../../src/contract/model.ts';
import { failure, opsBalance, until, useScenario, type Receiver, type TestSandbox } from './support.ts';

const scenario = useScenario();
let sandbox: TestSandbox, receiver: Receiver, customer: string;
beforeAll(() => ({ sandbox, receiver, customer } = scenario));

const api = () => sandbox.client();
const order = (body: { product_id: string; amount: number; quantity: number }) =>
  api().call.POST('/gift-cards/orders', { body: { customer_code: customer, ...body } });

describe("the contract's example products", () => {
  it("holds the contract's example products exactly as its examples show them", async () => {
    const openapi = JSON.parse(fs.readFileSync(path.join(ROOT, 'generated/openapi.json'), 'utf8'));
    const examples = contractModel(openapi).byPath('GET', '/gift-cards/products/{productId}')?.response(200)?.json?.examples as unknown as {
      value: { data: { product_id: string } };
    }[];
    expect(examples.map((e) => e.value.data.product_id)).toEqual(['gcp_000123', 'gcp_000456']);
    for (const { value } of examples) {
      const one = await api().call.GET('/gift-cards/products/{productId}', { params: { path: { productId: value.data.product_id } } });
      expect(one.data).toEqual(value.data);
    }
    const fr = await api().call.GET('/gift-cards/products', { params: { query: { country: 'FR' } } });
    expect(fr.data.map((p) => p.product_id)).toEqual(['gcp_000123', 'gcp_000456']);
  });

  it('a EUR product debits its USD value at 0.92 EUR per USD; a refund credits back the same', async () => {
    const before = await opsBalance(sandbox, 'gift_cards');
    const created = (await order({ product_id: 'gcp_000123', amount: 50, quantity: 2 })).data;
    expect(created).toMatchObject({ status: 'pending', amount: 50, quantity: 2, product_id: 'gcp_000123' });
    // 100.00 EUR / 0.92 = 108.695... USD, rounded to the cent.
    expect(await opsBalance(sandbox, 'gift_cards')).toBeCloseTo(before - 108.7, 2);
    await until(() => receiver.of('balance.debited').some((e) => e.data.reason === 'gift_card_order' && e.data.amount === 108.7));
    await sandbox.advance(2);
    await until(() => receiver.of('gift_card.delivered').some((e) => e.data.order_code === created.code));
    await sandbox.simulate('POST', `/gift-card-orders/${created.code}/outcome`, { outcome: 'refunded' });
    await until(() => receiver.of('gift_card.refunded').some((e) => e.data.order_code === created.code));
    expect(receiver.of('gift_card.refunded').find((e) => e.data.order_code === created.code)!.data).toMatchObject({
      refunded_amount: 108.7,
      balance_type: 'gift_cards',
    });
    expect(await opsBalance(sandbox, 'gift_cards')).toBe(before);
    expect(await failure(order({ product_id: 'gcp_000456', amount: 10, quantity: 1 }))).toMatchObject({
      status: 422,
      details: { fields: [{ field: 'amount', message: 'must be from 15 to 500' }] },
    });
  });
});
