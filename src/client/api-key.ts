// The API key rule, one check shared by the client (which refuses a malformed key before sending anything) and
// the sandbox (which answers it 401 AUTHENTICATION_FAILED naming the rule). The contract states the prefixes:
// a key of mode `test` starts with `sk_test_` and one of mode `live` with `sk_live_` (the security scheme and
// `Mode`); it says nothing of the rest, so the rest is any visible ASCII character: no space, no line break.
import type { components } from '../../generated/openapi.js';
import { modeValues } from '../../generated/openapi-values.js';

export type Mode = components['schemas']['Mode'];

/** `sk_test_`, `sk_live_`: `sk_<mode>_` for each mode of the contract. */
export const API_KEY_PREFIXES: readonly string[] = modeValues.map((mode) => `sk_${mode}_`);

/** The rule in words, for the messages that refuse a key. */
export const API_KEY_RULE = `${API_KEY_PREFIXES.join(' or ')} followed by the key (visible characters, no spaces)`;

const REST = /^[\x21-\x7E]+$/;

/** The mode of a key that follows the rule, or undefined when it does not. */
export function apiKeyMode(key: string): Mode | undefined {
  const mode = modeValues.find((m) => key.startsWith(`sk_${m}_`));
  return mode !== undefined && REST.test(key.slice(`sk_${mode}_`.length)) ? mode : undefined;
}
