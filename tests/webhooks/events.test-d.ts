// Type-level tests of src/webhooks/event-types.ts against generated/openapi.d.ts. Checked by `tsc --noEmit` (and by
// `vitest --typecheck`); nothing here runs.
import { describe, expectTypeOf, it } from 'vitest';
import {
  verifyWebhook,
  type WebhookEvent,
  type WebhookEventMap,
  type WebhookEventOf,
  type WebhookEventType,
} from '../../src/webhooks/index.js';

// The seed's event list (Events > Event list: 30 plus three card events). The derived union must match it
// exactly: a missing or extra webhook in the contract fails here.
type DocumentedEventType =
  | 'kyc.approved'
  | 'kyc.rejected'
  | 'kyc.expired'
  | 'kyc.resubmission_requested'
  | 'kyc.pending_review'
  | 'kyc.identity_mismatch'
  | 'kyc.identity_synchronized'
  | 'poa.approved'
  | 'poa.rejected'
  | 'card.activated'
  | 'card.creation_failed'
  | 'card.topup.completed'
  | 'card.topup.failed'
  | 'card.transaction'
  | 'card.3ds_request'
  | 'card.frozen'
  | 'card.unfrozen'
  | 'card.terminated'
  | 'card.withdrawal.completed'
  | 'card.withdrawal.failed'
  | 'card.termination_pending'
  | 'wallet.deposit_received'
  | 'wallet.withdrawal_completed'
  | 'wallet.withdrawal_failed'
  | 'virtual_account.deposit_received'
  | 'virtual_account.transfer_completed'
  | 'virtual_account.transfer_failed'
  | 'gift_card.delivered'
  | 'gift_card.failed'
  | 'gift_card.refunded'
  | 'balance.deposit_confirmed'
  | 'balance.debited'
  | 'balance.low_balance';

describe('WebhookEvent derived from the generated contract types', () => {
  it('covers exactly the 33 documented events', () => {
    expectTypeOf<WebhookEventType>().toEqualTypeOf<DocumentedEventType>();
  });

  it("keys every event by its own name: each event's `type` is its webhook key", () => {
    expectTypeOf<WebhookEvent['type']>().toEqualTypeOf<WebhookEventType>();
    expectTypeOf<WebhookEventOf<'card.frozen'>['type']>().toEqualTypeOf<'card.frozen'>();
    expectTypeOf<WebhookEventOf<'kyc.approved'>['type']>().toEqualTypeOf<'kyc.approved'>();
  });

  it('carries the envelope on every event', () => {
    expectTypeOf<WebhookEvent['id']>().toEqualTypeOf<string>();
    expectTypeOf<WebhookEvent['created_at']>().toEqualTypeOf<string>();
    expectTypeOf<WebhookEvent['mode']>().toEqualTypeOf<'live' | 'test'>();
  });

  it('narrows the payload by `type`', () => {
    const handle = (event: WebhookEvent) => {
      if (event.type === 'card.frozen') {
        expectTypeOf(event).toEqualTypeOf<WebhookEventOf<'card.frozen'>>();
        expectTypeOf(event.data.status).toEqualTypeOf<'frozen'>();
        expectTypeOf(event.data.card_code).toEqualTypeOf<string>();
        expectTypeOf(event.data.balance).toEqualTypeOf<number>();
      }
      if (event.type === 'kyc.approved') {
        expectTypeOf(event.data.identity_mismatch).toEqualTypeOf<boolean>();
      }
    };
    expectTypeOf(handle).toBeFunction();
  });

  it('gives a handler map its per-event parameter types', () => {
    type Handlers = { [K in WebhookEventType]?: (event: WebhookEventMap[K]) => void };
    expectTypeOf<Parameters<NonNullable<Handlers['card.frozen']>>[0]>().toEqualTypeOf<WebhookEventOf<'card.frozen'>>();
  });

  it('types verifyWebhook: the union by default, a caller-chosen type otherwise', () => {
    const byDefault = () => verifyWebhook('{}', {}, 'whsec_x');
    const chosen = () => verifyWebhook<WebhookEventOf<'card.frozen'>>('{}', {}, 'whsec_x');
    expectTypeOf(byDefault).returns.resolves.toEqualTypeOf<WebhookEvent>();
    expectTypeOf(chosen).returns.resolves.toEqualTypeOf<WebhookEventOf<'card.frozen'>>();
  });
});
