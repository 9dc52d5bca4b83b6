// The sandbox's bounds on what it reads and what it keeps, in one place: the HTTP edge (body, nesting, request
// line and headers, time), the database file's permissions and the per-key state held in memory. docs/sandbox.md
// ("Limits and safety") states each value, and tests/sandbox/docs-values.test.ts checks that it states these.

/** The largest request body, in bytes. */
export const BODY_LIMIT_BYTES = 1_048_576;

/**
 * An operation with a string field longer than BODY_LIMIT_BYTES (a proof-of-address file, base64-encoded) takes a
 * body of that field's `maxLength` plus this many bytes, for the rest of the body.
 */
export const LONG_FIELD_BODY_MARGIN_BYTES = 65_536;

/**
 * A body refused as too large is still read (and discarded) up to this many bytes, for at most
 * TOO_LARGE_READ_MS, before the 413 is sent: a client that sends its whole body before it reads the answer
 * (Node's fetch) then gets the 413, not a broken pipe. Beyond, the answer is sent at once and the connection
 * closed.
 */
export const TOO_LARGE_READ_BYTES = 64 * 1_048_576;
export const TOO_LARGE_READ_MS = 10_000;

/**
 * The deepest nesting of arrays and objects a JSON body may have. The contract's deepest request body is a few
 * levels deep; a body nested thousands deep is refused before it is parsed, so that nothing downstream (the
 * idempotency fingerprint, validation) recurses through it.
 */
export const BODY_MAX_DEPTH = 32;

/** The request line (method, path and query) and the headers together, in bytes: Node's parser answers 431 beyond. */
export const HEADER_LIMIT_BYTES = 16_384;

/**
 * The longest path parameter the router passes on. It is the request line's own bound, so that a code of any
 * length reaches validation and is answered as any malformed code is (422 naming the parameter).
 */
export const PARAM_MAX_LENGTH = HEADER_LIMIT_BYTES;

/** The headers must arrive within this time (Node's default, stated here), the whole request within REQUEST_TIMEOUT_MS: 408 beyond. */
export const HEADERS_TIMEOUT_MS = 60_000;
export const REQUEST_TIMEOUT_MS = 120_000;

/** The mode of the database file and its `-wal` and `-shm` files: they hold API keys, webhook secrets and card numbers. */
export const DB_FILE_MODE = 0o600;

/**
 * Accounts (and their product lists) kept in memory, most recently used first; the others are read from the
 * store when their key comes back. Zero setup makes an account for every key, so the cache must not grow with them.
 */
export const ACCOUNTS_IN_MEMORY = 1_000;

/**
 * Snapshots kept per account (`POST /sandbox/snapshots`), and for the whole sandbox (`sandbox.snapshot()`): taking
 * one more forgets the least recently taken or restored one. A snapshot holds a copy of the account's rows, so the
 * number kept, not their size, is what is bounded here.
 */
export const SNAPSHOTS_PER_ACCOUNT = 20;

/** Accounts whose snapshots are kept, most recently used first: the snapshots of the others are forgotten. */
export const SNAPSHOT_ACCOUNTS_IN_MEMORY = 100;

/**
 * Keys whose rate-limit count of the current minute is kept in memory, most recently used first. A key pushed
 * out starts its minute again: zero setup gives any caller as many keys as it likes, so a per-key count never
 * bounds the total anyway.
 */
export const RATE_LIMITED_KEYS_IN_MEMORY = 10_000;

/**
 * The most of a receiver's answer the sandbox reads. Only the status counts; the body is read (and discarded) up
 * to this, so that a receiver that answers at length still closes cleanly, and beyond it the connection is
 * closed: a receiver's answer never costs the sandbox more memory or time than this.
 */
export const ANSWER_LIMIT_BYTES = 64 * 1024;
