// The partner API client. See docs/client.md.

export {
  createPartnerClient,
  isGiftCardPath,
  modeOfApiKey,
  DEFAULT_TIMEOUT_MS,
  type DataMethod,
  type Mode,
  type PartnerClient,
  type PartnerClientOptions,
} from './client.js';
export {
  PartnerApiError,
  PartnerConnectionError,
  PartnerResponseError,
  PartnerTimeoutError,
  isPartnerApiError,
  type PartnerApiErrorFor,
  type PartnerApiErrorOf,
} from './errors.js';
export {
  DEFAULT_RETRY,
  isRetryableRequest,
  parseRetryAfter,
  withRetries,
  type FetchInit,
  type FetchLike,
  type RetryOptions,
} from './retry.js';
export type {
  ErrorCode,
  ErrorDetails,
  HttpMethod,
  Meta,
  OperationErrorCode,
  PageItem,
  PaginatedPath,
  Pagination,
  PathErrorCode,
  PathsWithMethod,
  ResultErrorCode,
  SuccessBody,
} from './types.js';
