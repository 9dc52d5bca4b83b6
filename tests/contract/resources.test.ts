// Rules of the designed resources that live in their schemas: a physical card needs a shipping address and a
// virtual one refuses it; the name on a card fits the card; `POST /cards/{code}/topup` never answers `failed`,
// while a top-up read can be `failed`.
import { describe, expect, it } from 'vitest';
import { SchemaValidator } from '../../scripts/lib/schema.ts';
import { contractModel } from '../../src/contract/model.ts';
import { built } from './helpers.ts';

const { openapi } = built();
const schemas = new SchemaValidator(openapi, 'openapi');
const valid = (ptr: string, value: unknown) => schemas.check(ptr, value) === undefined;

const CREATE_CARD = '/components/schemas/CreateCardRequest';
const card = {
  customer_code: '3f1c2a9e-8b7d-4c5e-9f10-2a3b4c5d6e7f',
  brand: 'VISA',
  amount: 100,
};
const address = { street: '12 rue de la Paix', city: 'Paris', postal_code: '75002', country: 'FR' };

describe('POST /cards body', () => {
  it('a virtual card without a shipping address is valid; with one it is refused', () => {
    expect(schemas.check(CREATE_CARD, { ...card, category: 'virtual' })).toBeUndefined();
    expect(valid(CREATE_CARD, { ...card, category: 'virtual', shipping_address: address })).toBe(false);
  });

  it('a physical card needs a shipping address', () => {
    expect(schemas.check(CREATE_CARD, { ...card, category: 'physical', shipping_address: address })).toBeUndefined();
    expect(valid(CREATE_CARD, { ...card, category: 'physical' })).toBe(false);
  });

  it('a shipping address needs street, city, postal code and an ISO 3166-1 alpha-2 country', () => {
    const physical = (shipping_address: object) => ({ ...card, category: 'physical', shipping_address });
    for (const field of ['street', 'city', 'postal_code', 'country'] as const) {
      const { [field]: _dropped, ...rest } = address;
      expect(valid(CREATE_CARD, physical(rest)), `without ${field}`).toBe(false);
    }
    expect(valid(CREATE_CARD, physical({ ...address, country: 'France' }))).toBe(false);
    expect(valid(CREATE_CARD, physical({ ...address, state_province: 'Île-de-France', street_2: 'Bât. B' }))).toBe(true);
  });

  it('an unknown category is refused', () => {
    expect(valid(CREATE_CARD, { ...card, category: 'metal' })).toBe(false);
  });

  it('name_on_card: 1 to 26 Latin letters, spaces, periods, apostrophes and hyphens, starting with a letter', () => {
    const named = (name_on_card: string) => valid(CREATE_CARD, { ...card, category: 'virtual', name_on_card });
    expect(named('AMINA DIALLO')).toBe(true);
    expect(named("J. O'NEIL-SMITH")).toBe(true);
    expect(named('A'.repeat(26))).toBe(true);
    expect(named('A'.repeat(27))).toBe(false);
    expect(named('')).toBe(false);
    expect(named('ZOË MÜLLER')).toBe(false);
    expect(named(' AMINA')).toBe(false);
    expect(named('AMINA 2')).toBe(false);
  });

  it('reference and product_code are optional and bounded', () => {
    const virtual = { ...card, category: 'virtual' };
    expect(valid(CREATE_CARD, { ...virtual, reference: 'card-1', product_code: '5d8e1f2a-3b4c-4d5e-8f9a-0b1c2d3e4f5a' })).toBe(true);
    expect(valid(CREATE_CARD, { ...virtual, reference: 'x'.repeat(101) })).toBe(false);
    expect(valid(CREATE_CARD, { ...virtual, product_code: 'gold' })).toBe(false);
  });
});

describe('card top-ups', () => {
  const TOPUP_POST = '/paths/~1cards~1{code}~1topup/post/responses/200/content/application~1json/schema';
  const TOPUP_GET = '/paths/~1cards~1{code}~1topups~1{topupId}/get/responses/200/content/application~1json/schema';
  const topUp = (status: string) => ({
    success: true,
    data: {
      card_code: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
      topup_id: '6b8d0f2a-4c6e-4a8b-9d0f-2a4c6e8a0b1d',
      status,
      amount: 50,
      fee: 1,
      total_debited: 51,
      debited_balance: 'cards_visa',
      currency: 'USD',
      failure_reason: status === 'failed' ? 'Card terminated' : null,
      refunded_amount: status === 'failed' ? 51 : null,
      created_at: '2026-03-02T08:12:05Z',
    },
    meta: { request_id: 'req_1', mode: 'test', timestamp: '2026-03-02T08:12:05Z' },
  });

  it('the top-up request answers pending or completed, never failed', () => {
    expect(valid(TOPUP_POST, topUp('pending'))).toBe(true);
    expect(valid(TOPUP_POST, topUp('completed'))).toBe(true);
    expect(valid(TOPUP_POST, topUp('failed'))).toBe(false);
  });

  it('a top-up read can be pending, completed or failed', () => {
    for (const status of ['pending', 'completed', 'failed']) expect(valid(TOPUP_GET, topUp(status)), status).toBe(true);
    expect(valid(TOPUP_GET, topUp('refunded'))).toBe(false);
  });
});

describe('POST /payouts/beneficiaries body', () => {
  const CREATE = '/components/schemas/CreateBeneficiaryRequest';
  const address = { street: 'Hauptstraße 5', city: 'Berlin', postal_code: '10115', country: 'DE' };
  const sepa = {
    customer_code: '3f1c2a9e-8b7d-4c5e-9f10-2a3b4c5d6e7f',
    rail: 'sepa',
    type: 'individual',
    name: 'Lukas Schmidt',
    bank_name: 'Beispielbank',
    iban: 'DE89370400440532013000',
    address,
  };
  const ach = {
    customer_code: '3f1c2a9e-8b7d-4c5e-9f10-2a3b4c5d6e7f',
    rail: 'ach',
    type: 'individual',
    name: 'John Carter',
    bank_name: 'Example Bank',
    account_number: '000123456789',
    routing_number: '021000021',
    address: { ...address, country: 'US' },
  };

  it('SEPA: the IBAN is enough, without a BIC or a state/province', () => {
    expect(schemas.check(CREATE, sepa)).toBeUndefined();
    expect(valid(CREATE, { ...sepa, bic_swift: 'COBADEFFXXX' })).toBe(true);
    expect(valid(CREATE, { ...sepa, bic_swift: 'not a bic' })).toBe(false);
  });

  it('ACH: account_type is checking or savings, and optional', () => {
    expect(schemas.check(CREATE, ach)).toBeUndefined();
    expect(valid(CREATE, { ...ach, account_type: 'savings' })).toBe(true);
    expect(valid(CREATE, { ...ach, account_type: 'money_market' })).toBe(false);
    expect(valid(CREATE, { ...sepa, account_type: 'checking' })).toBe(false);
  });

  it('the address needs street, city, postal code and an alpha-2 country; no unknown fields', () => {
    for (const field of ['street', 'city', 'postal_code', 'country'] as const) {
      const { [field]: _dropped, ...rest } = address;
      expect(valid(CREATE, { ...sepa, address: rest }), `without ${field}`).toBe(false);
    }
    expect(valid(CREATE, { ...sepa, address: { ...address, country: 'DEU' } })).toBe(false);
    expect(valid(CREATE, { ...sepa, address: { ...address, region: 'Berlin' } })).toBe(false);
  });
});

describe('POST /kyc/{customerCode}/link body', () => {
  const LINK = '/components/schemas/CreateKycLinkRequest';
  it('is optional: the operation accepts no body', () => {
    expect(contractModel(openapi).byPath('POST', '/kyc/{customerCode}/link')?.requestBody?.required).toBe(false);
    expect(schemas.check(LINK, {})).toBeUndefined();
  });

  it('return_url must be https; locale is a BCP 47 tag', () => {
    expect(schemas.check(LINK, { return_url: 'https://app.example.com/back', locale: 'fr-FR' })).toBeUndefined();
    for (const locale of ['fr', 'pt-BR', 'zh-Hant-TW', 'es-419']) expect(valid(LINK, { locale }), locale).toBe(true);
    for (const locale of ['french', 'fr_FR', 'FR-fr', 'f', 'fr-FR-x-private-extension'])
      expect(valid(LINK, { locale }), locale).toBe(false);
    expect(valid(LINK, { return_url: 'http://app.example.com/back' })).toBe(false);
    expect(valid(LINK, { return_url: `https://app.example.com/${'x'.repeat(2048)}` })).toBe(false);
    expect(valid(LINK, { redirect: 'https://app.example.com/back' })).toBe(false);
  });
});

describe('customers', () => {
  const UPDATE = '/components/schemas/UpdateCustomerRequest';
  const CREATE = '/components/schemas/CreateCustomerRequest';

  it('an update changes at least one known field; null removes email or phone', () => {
    expect(schemas.check(UPDATE, { email: 'amina.diallo@example.com', phone: '+33612345678' })).toBeUndefined();
    expect(schemas.check(UPDATE, { email: null, phone: null })).toBeUndefined();
    expect(valid(UPDATE, {})).toBe(false);
    expect(valid(UPDATE, { status: 'inactive' })).toBe(false);
    expect(valid(UPDATE, { external_reference: null })).toBe(false);
  });

  it('phone is E.164 and email an address, on create and update', () => {
    const base = { external_reference: 'cust-1', first_name: 'Amina', last_name: 'Diallo', date_of_birth: '1990-04-17' };
    expect(schemas.check(CREATE, { ...base, email: 'a@example.com', phone: '+14155550123' })).toBeUndefined();
    for (const phone of ['0612345678', '+0612345678', '+33 6 12 34 56 78', `+${'1'.repeat(16)}`]) {
      expect(valid(CREATE, { ...base, phone }), phone).toBe(false);
      expect(valid(UPDATE, { phone }), phone).toBe(false);
    }
    expect(valid(UPDATE, { email: 'not-an-email' })).toBe(false);
  });

  it('every status of CustomerStatus is reached by a named operation', () => {
    const model = contractModel(openapi);
    const status = model.schema('CustomerStatus')!.node as { description: string; oneOf: { enum?: string[]; const?: string }[] };
    const statuses = status.oneOf.flatMap((b) => b.enum ?? [b.const!]);
    expect(statuses.sort()).toEqual(['active', 'inactive', 'restricted']);
    const description = (path: string) => String(model.byPath('POST', path)?.node.description);
    expect(description('/customers/{customerCode}/deactivate')).toMatch(/`inactive`/);
    expect(description('/customers/{customerCode}/activate')).toMatch(/`active`/);
    expect(model.byPath('POST', '/kyc/{customerCode}/synchronize')).toBeDefined();
    for (const s of statuses) expect(status.description).toContain(`\`${s}\``);
  });
});

describe('gift cards', () => {
  const PRODUCT = '/components/schemas/GiftCardProduct';
  const ORDER = '/components/schemas/GiftCardOrder';
  const product = {
    product_id: 'gcp_1',
    name: 'Card',
    brand: 'Brand',
    country: 'FR',
    currency: 'EUR',
    denomination_type: 'fixed',
    denominations: [10, 25],
    min_amount: null,
    max_amount: null,
    redemption_instructions: null,
  };

  it('a product has a country, a currency, and fixed values or a range', () => {
    expect(schemas.check(PRODUCT, product)).toBeUndefined();
    expect(
      schemas.check(PRODUCT, { ...product, denomination_type: 'range', denominations: null, min_amount: 15, max_amount: 500 }),
    ).toBeUndefined();
    expect(valid(PRODUCT, { ...product, country: 'FRA' })).toBe(false);
    expect(valid(PRODUCT, { ...product, currency: 'eur' })).toBe(false);
    expect(valid(PRODUCT, { ...product, denominations: [10, 10] })).toBe(false);
  });

  it('the redemption details are only on the order read, and the list, creation and events do not carry them', () => {
    const order = {
      code: '2c4e6a8b-0d1f-4a3c-9e5b-7d9f1b3d5e7a',
      customer_code: '3f1c2a9e-8b7d-4c5e-9f10-2a3b4c5d6e7f',
      product_id: 'gcp_1',
      amount: 50,
      quantity: 1,
      status: 'delivered',
      created_at: '2026-03-02T10:15:30Z',
    };
    const redemption = { redemption_code: 'AQ7X', pin: '1234', redemption_url: null, expires_at: '2027-03-02' };
    expect(schemas.check(ORDER, { ...order, redemptions: [redemption] })).toBeUndefined();
    expect(valid(ORDER, { ...order, redemptions: [{ ...redemption, redemption_url: 'http://insecure.example.com' }] })).toBe(false);
    const model = contractModel(openapi);
    const examplesOf = (method: string, path: string) =>
      model
        .byPath(method, path)
        ?.response(200)
        ?.json?.examples.map((e) => e.value);
    const examples = JSON.stringify({ list: examplesOf('GET', '/gift-cards/orders'), create: examplesOf('POST', '/gift-cards/orders') });
    expect(examples).not.toContain('redemption');
    const read = model.byPath('GET', '/gift-cards/orders/{code}')?.response(200);
    expect(JSON.stringify(read?.json?.examples.map((e) => e.value))).toContain('redemption_code');
    const cacheControl = read?.headers.find((h) => h.name === 'Cache-Control')?.node;
    expect((model.resolve(cacheControl?.schema).node as { const?: string }).const).toBe('no-store');
    for (const name of ['gift_card.delivered', 'gift_card.failed', 'gift_card.refunded', 'GiftCardEventBase']) {
      expect(JSON.stringify(model.schema(name)?.node), name).not.toContain('redemption_code');
    }
  });
});
