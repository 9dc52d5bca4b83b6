// The events' rules: how long they are kept, and the idempotency key every delivery of one carries.

/** Events older than this (of the clock) are neither listed nor redelivered. */
export const EVENT_RETENTION_MS = 30 * 86_400_000;

/** The idempotency key of every delivery of an event: `idem_` and the hex digits of its id. */
export const idempotencyKeyOf = (eventId: string): string => `idem_${eventId.slice(4).replaceAll('-', '')}`;
