// The contract's two addresses, from the table the build writes (generated/openapi-values.js, `contractFacts`,
// from the document's `servers` and the gift card operations' own): `{base_url}`, ending in `/v1`, and
// `{alt_base_url}`, ending in `/api/v1`, where the paths under its prefixes (`/gift-cards`) are served. The
// client, the sandbox, the mock and the tools read them here rather than typing them.
import { contractFacts } from '../../generated/openapi-values.js';

/** `{base_url}`: its variable and base path (`/v1`). */
export const BASE_SERVER = contractFacts.base;
/** `{alt_base_url}`: its variable, base path (`/api/v1`) and the path prefixes it serves (`/gift-cards`). */
export const GIFT_CARD_SERVER = contractFacts.alt;
/** Both base paths, `{base_url}`'s first. */
export const BASE_PATHS: readonly string[] = [BASE_SERVER.path, GIFT_CARD_SERVER.path];

/** True for the paths served at `{alt_base_url}` (the gift card operations), a path without its base path. */
export function isGiftCardPath(path: string): boolean {
  return GIFT_CARD_SERVER.pathPrefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/** The base path a path (without its base path) is served at: `/api/v1` for the gift card ones, else `/v1`. */
export function basePathOf(path: string): string {
  return isGiftCardPath(path) ? GIFT_CARD_SERVER.path : BASE_SERVER.path;
}

/** A request's path split at its base path (`/v1/cards` -> `/v1` and `/cards`); `base` undefined when it has neither. */
export function splitBasePath(path: string): { base: string | undefined; rest: string } {
  const base = BASE_PATHS.find((b) => path === b || path.startsWith(`${b}/`));
  return { base, rest: base === undefined ? path : path.slice(base.length) };
}
