// Types-only entry (`<package>/types`): the contract's generated types and the webhook event union.
export type { components, operations, paths, webhooks } from '../generated/openapi.js';
export type { WebhookEvent, WebhookEventMap, WebhookEventOf, WebhookEventType } from './webhooks/event-types.js';
export type { ErrorCode, Meta, OperationErrorCode, PageItem, PaginatedPath, Pagination, PathErrorCode } from './client/types.js';
