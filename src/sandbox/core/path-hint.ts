// The hint of a 404 for a path that is right but for its base path: `GET /balance` (a base URL without
// `/v1`), or a card operation called at the gift card address `/api/v1`. "No operation at GET /balance" alone
// reads like a missing resource; the hint names the path to call.
import { BASE_PATHS, BASE_SERVER, GIFT_CARD_SERVER } from '../../contract/servers.js';
import type { OperationInfo } from './contract.js';

/** The contract's template as a regular expression of a path without its base (`/cards/{code}` -> `^/cards/[^/]+/?$`). */
function templateRe(template: string): RegExp {
  return new RegExp(
    `^${template
      .split(/\{[^}]+\}/)
      .map((s) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
      .join('[^/]+')}/?$`,
  );
}

/** The base an operation is served at: `/api/v1` for the gift card operations ({alt_base_url}), else `/v1`. */
const baseOf = (operation: OperationInfo) => (operation.altHost ? GIFT_CARD_SERVER.path : BASE_SERVER.path);

/** A sentence to add to "No operation at METHOD PATH.", or '' when the path is not a misplaced operation. */
export function basePathHint(method: string, path: string, operations: OperationInfo[]): string {
  const base = BASE_PATHS.find((b) => path === b || path.startsWith(`${b}/`));
  const rest = base === undefined ? path : path.slice(base.length);
  const matching = operations.filter((o) => templateRe(o.path).test(rest));
  const operation = matching.find((o) => o.method === method) ?? matching[0];
  if (!operation || baseOf(operation) === base) return '';
  const right = `${operation.method === method ? method : operation.method} ${baseOf(operation)}${rest}`;
  if (base === undefined) {
    return ` The API's paths start with ${baseOf(operation)} (the base URL ends in it): did you mean ${right}?`;
  }
  return ` ${base} serves ${base === GIFT_CARD_SERVER.path ? 'only the gift card operations' : 'every operation but the gift card ones'}: did you mean ${right}?`;
}
