// Shared inputs for the webhook tests.
import { contractModel } from '../../src/contract/model.ts';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe } from 'vitest';
import { forceWebCrypto } from '../../src/webhooks/crypto.js';

export const SECRET = 'whsec_test_5f2b8c1d9e3a4b6c7d8e9f0a1b2c3d4e';
export const OTHER_SECRET = 'whsec_test_00000000000000000000000000000000';
export const T = 1772446530;

/** The card.frozen example event of the contract (generated/openapi.json). */
export const CARD_FROZEN = cardFrozenExample();

function cardFrozenExample(): Record<string, unknown> {
  const bundle = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));
  return (contractModel(bundle).schema('card.frozen')!.node['examples'] as Record<string, unknown>[])[0]!;
}

export const BODY = JSON.stringify(CARD_FROZEN);

/** A clock fixed at `T + offset` seconds. */
export const at =
  (offset = 0) =>
  () =>
    T + offset;

/** The two ways src/webhooks computes an HMAC: node:crypto (Node, Bun, Deno) and Web Crypto (elsewhere). */
export const CRYPTO_PATHS = ['node:crypto', 'Web Crypto'] as const;
export type CryptoPath = (typeof CRYPTO_PATHS)[number];

/** Declares `suite` once per crypto path, the Web Crypto one forced as on a runtime without node:crypto. */
export function onEachCryptoPath(suite: (path: CryptoPath) => void): void {
  for (const path of CRYPTO_PATHS) {
    describe(`with ${path}`, () => {
      beforeAll(() => forceWebCrypto(path === 'Web Crypto'));
      afterAll(() => forceWebCrypto(false));
      suite(path);
    });
  }
}
