// Shared inputs for the webhook tests.
export const SECRET = 'whsec_test_5f2b8c1d9e3a4b6c7d8e9f0a1b2c3d4e';
export const OTHER_SECRET = 'whsec_test_00000000000000000000000000000000';
export const T = 1772446530;

export const CARD_FROZEN = {
  id: 'evt_0b6f2c1e-4d7a-4f3b-9c8e-1a2b3c4d5e6f',
  type: 'card.frozen',
  created_at: '2026-03-02T10:15:30Z',
  mode: 'test',
  data: {
    card_code: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
    customer_code: '3f1c2a9e-8b7d-4c5e-9f10-2a3b4c5d6e7f',
    external_reference: 'cust-000123',
    product_code: '5d8e1f2a-3b4c-4d5e-8f9a-0b1c2d3e4f5a',
    brand: 'VISA',
    status: 'frozen',
    last_four: '4242',
    balance: 75,
    currency: 'USD',
  },
} as const;

export const BODY = JSON.stringify(CARD_FROZEN);

/** A clock fixed at `T + offset` seconds. */
export const at = (offset = 0) => () => T + offset;
