// The codes of the contract's example records (`EXAMPLE_CODES`, exported by the package's sandbox), apart from
// the seed (./seed.ts) that creates those records: a plain start needs the codes' names, not the seed's code.
import { sandboxModel } from './core/contract.js';

/** The parameter of the contract whose `example` is the code of each example record. */
const EXAMPLE_PARAMETERS = {
  customer: 'CustomerCode',
  card: 'CardCode',
  topup: 'TopUpId',
  beneficiary: 'BeneficiaryCode',
  payout: 'PayoutCode',
  virtualAccount: 'VirtualAccountCode',
  giftCardOrder: 'GiftCardOrderCode',
  webhookEndpoint: 'WebhookEndpointCode',
  event: 'EventId',
} as const;

/** The codes of the contract's examples: the `example` of each path parameter of generated/openapi.json. */
export const EXAMPLE_CODES = Object.fromEntries(
  Object.entries(EXAMPLE_PARAMETERS).map(([record, parameter]) => {
    const example = sandboxModel().component('parameters', parameter)?.node.example;
    if (typeof example !== 'string') throw new Error(`the contract's parameter ${parameter} has no example`);
    return [record, example];
  }),
) as Readonly<Record<keyof typeof EXAMPLE_PARAMETERS, string>>;
