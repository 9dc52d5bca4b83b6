// The hint of a 404 for a path that is right but for its base path: `GET /balance` (a base URL without
// `/v1`), or a card operation called at the gift card address `/api/v1`. "No operation at GET /balance" alone
// reads like a missing resource; the hint names the path to call.
import type { ContractModel, Operation } from '../../contract/model.js';
import { BASE_SERVER, GIFT_CARD_SERVER, splitBasePath } from '../../contract/servers.js';

/** The base path an operation is served at, from its servers: `/api/v1` for the gift card operations, else `/v1`. */
const baseOf = (operation: Operation) => operation.server?.basePath ?? BASE_SERVER.path;

/** A sentence to add to "No operation at METHOD PATH.", or '' when the path is not a misplaced operation. */
export function basePathHint(method: string, path: string, model: ContractModel): string {
  const { base, rest } = splitBasePath(path);
  const operations = model.match(rest)?.operations ?? [];
  const operation = operations.find((o) => o.method.toUpperCase() === method) ?? operations[0];
  if (!operation || baseOf(operation) === base) return '';
  const verb = operation.method.toUpperCase();
  const right = `${verb === method ? method : verb} ${baseOf(operation)}${rest}`;
  if (base === undefined) {
    return ` The API's paths start with ${baseOf(operation)} (the base URL ends in it): did you mean ${right}?`;
  }
  return ` ${base} serves ${base === GIFT_CARD_SERVER.path ? 'only the gift card operations' : 'every operation but the gift card ones'}: did you mean ${right}?`;
}
