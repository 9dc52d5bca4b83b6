// The name on a card when the request gives none, as the contract's NameOnCard says: the customer's first and last
// name, transliterated (accents dropped), in capitals, without the characters the schema's `pattern` refuses, and
// shortened to its `maxLength`. Both are read from the contract.
import { sandboxModel } from '../core/contract.js';

let schema: { pattern: RegExp; maxLength: number } | undefined;

function nameSchema(): { pattern: RegExp; maxLength: number } {
  const node = sandboxModel().schema('NameOnCard')?.node;
  schema ??= { pattern: new RegExp(String(node?.pattern), 'u'), maxLength: Number(node?.maxLength) };
  return schema;
}

/** `Zoë`, `Müller-Lüdenscheidt` -> `ZOE MULLER-LUDENSCHEIDT`, within the schema's length. */
export function defaultNameOnCard(firstName: string, lastName: string): string {
  const { pattern, maxLength } = nameSchema();
  const plain = `${firstName} ${lastName}`.normalize('NFKD').replace(/\p{M}/gu, '').toUpperCase();
  // A character is kept when the schema accepts it after a letter; leading characters up to the first letter are dropped.
  const kept = [...plain].filter((c) => pattern.test(`A${c}`)).join('');
  const name = kept
    .replace(/^[^A-Z]+/, '')
    .replace(/\s+/g, ' ')
    .slice(0, maxLength)
    .trim();
  return pattern.test(name) ? name : 'CARDHOLDER';
}
