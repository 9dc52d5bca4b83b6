// The webhook event types, derived from the types openapi-typescript generates from the contract
// (generated/openapi.d.ts, built by `npm run build`). Nothing here lists the events by hand: adding a webhook
// to spec/openapi.yaml adds it to `WebhookEvent`.
//
// In the generated file, `webhooks["card.frozen"].post` is `operations["onCardFrozen"]`, and the event is that
// operation's `requestBody.content["application/json"]`.

import type { webhooks } from '../../generated/openapi.js';

type JsonRequestBody<Op> = Op extends { requestBody?: infer Body }
  ? NonNullable<Body> extends { content: { 'application/json': infer Event } }
    ? Event
    : never
  : never;

type PostOperation<Item> = Item extends { post: infer Op } ? Op : never;

/** Every event name (`"card.frozen"`, `"kyc.approved"`...): the keys of the contract's `webhooks`. */
export type WebhookEventType = keyof webhooks & string;

/** Each event name mapped to its event type (envelope and payload). Handy for handler maps. */
export type WebhookEventMap = { [K in WebhookEventType]: JsonRequestBody<PostOperation<webhooks[K]>> };

/** The union of every event, discriminated by `type`: `switch (event.type)` narrows `event.data`. */
export type WebhookEvent = WebhookEventMap[WebhookEventType];

/** The event of one name: `WebhookEventOf<'card.frozen'>`. */
export type WebhookEventOf<T extends WebhookEventType> = WebhookEventMap[T];
