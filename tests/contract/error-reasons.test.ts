// State errors a program can act on: every `details.reason` in an example is a value of ErrorReason; an
// operation's description names the reasons its own responses show, and a shared response's description
// the reasons of its examples; each reason is documented in docs/errors.md; the withdraw 400 shows the card's
// own shortage.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { operations } from './checklist.ts';
import { ROOT } from '../../scripts/lib/paths.ts';
import { isObject, type Json, type JsonObject } from '../../scripts/lib/pointer.ts';
import { contractModel } from '../../src/contract/model.ts';
import { built, expectNoProblems } from './helpers.ts';

const detailsOf = (value: Json): JsonObject | undefined =>
  isObject(value) && isObject(value['error']) && isObject(value['error']['details']) ? value['error']['details'] : undefined;

const named = (text: unknown, reason: string) => typeof text === 'string' && text.includes(`\`${reason}\``);

/** Reasons of operation examples that are not in ErrorReason, or not named in the description the partner reads. */
function reasonProblems(openapi: JsonObject, reasons: string[]): { problems: string[]; seen: number } {
  const problems: string[] = [];
  let seen = 0;
  for (const op of contractModel(openapi).operations) {
    const label = `${op.method.toUpperCase()} ${op.path}`;
    for (const response of op.responses) {
      // A response shared by several operations (a component) names its reasons in its own description.
      const shared = response.pointer.startsWith('/components/') ? response.pointer : undefined;
      for (const { name, value } of response.json?.examples ?? []) {
        const reason = detailsOf(value)?.['reason'];
        if (reason === undefined) continue;
        seen++;
        if (typeof reason !== 'string' || !reasons.includes(reason)) {
          problems.push(`${label} ${response.status} ${name}: reason ${String(reason)} is not in ErrorReason`);
        } else if (shared) {
          if (!named(response.node['description'], reason)) problems.push(`#${shared}: its description does not name \`${reason}\``);
        } else if (!named(op.node['description'], reason)) {
          problems.push(`${label}: its description does not name \`${reason}\` (${response.status} ${name})`);
        }
      }
    }
  }
  return { problems: [...new Set(problems)], seen };
}

describe('error reasons', () => {
  const { openapi } = built();
  const reasons = contractModel(openapi).schema('ErrorReason')?.node['enum'] as string[];

  it('ErrorReason is a closed list that keeps the reasons every branch relies on', () => {
    expect(reasons).toEqual(
      expect.arrayContaining([
        'card_not_active',
        'card_not_frozen',
        'card_not_usable',
        'card_balance_too_low',
        'ops_balance_too_low',
        'webhook_endpoint_required',
        'verification_level_too_low',
        'customer_restricted',
        'identity_not_mismatched',
        'webhook_ping_failed',
        'idempotency_key_reused',
        'quote_expired',
        'quote_already_confirmed',
        'beneficiary_rail_mismatch',
      ]),
    );
    expect(new Set(reasons).size).toBe(reasons.length);
  });

  it('every reason in an operation example is in ErrorReason and is named where the partner reads it', () => {
    const { problems, seen } = reasonProblems(openapi, reasons);
    expect(seen).toBeGreaterThan(30);
    expectNoProblems(problems);
  });

  it('the check names an unknown reason and a reason the description does not name', () => {
    const broken = structuredClone(openapi);
    const freeze = operations(broken).find((o) => o.op['operationId'] === 'freezeCard')!;
    freeze.op['description'] = 'Freezes a card.';
    const unfreeze = operations(broken).find((o) => o.op['operationId'] === 'unfreezeCard')!;
    const media = ((unfreeze.op['responses'] as JsonObject)['422'] as JsonObject)['content'] as JsonObject;
    const examples = (media['application/json'] as JsonObject)['examples'] as JsonObject;
    examples['card_not_frozen'] = {
      value: { success: false, error: { code: 'VALIDATION_ERROR', message: 'x', details: { reason: 'card_is_sad' } } },
    };
    const { problems } = reasonProblems(broken, reasons);
    expect(problems).toContain('POST /cards/{code}/freeze: its description does not name `card_not_active` (422 card_not_active)');
    expect(problems).toContain('POST /cards/{code}/unfreeze 422 card_not_frozen: reason card_is_sad is not in ErrorReason');
  });

  it('a state refusal carries the resource status where the resource has one', () => {
    const withStatus = [
      'card_not_active',
      'card_not_frozen',
      'card_not_usable',
      'identity_not_mismatched',
      'quote_expired',
      'quote_already_confirmed',
      'customer_restricted',
    ];
    const problems: string[] = [];
    for (const { method, path: p, responses } of contractModel(openapi).operations) {
      for (const { status, json } of responses) {
        for (const { name, value } of json?.examples ?? []) {
          const details = detailsOf(value);
          const reason = details?.['reason'];
          if (typeof reason === 'string' && withStatus.includes(reason) && typeof details?.['current_status'] !== 'string') {
            problems.push(`${method.toUpperCase()} ${p} ${status} ${name}: ${reason} without details.current_status`);
          }
          if (
            reason === 'verification_level_too_low' &&
            !(details?.['current_verification_level'] && details['required_verification_level'])
          ) {
            problems.push(`${method.toUpperCase()} ${p} ${status} ${name}: verification_level_too_low without the two levels`);
          }
        }
      }
    }
    expectNoProblems(problems);
  });

  it('the withdraw 400 example is the card balance, not an ops balance', () => {
    const [first] = contractModel(openapi).operation('withdrawFromCard')?.response(400)?.json?.examples ?? [];
    expect(detailsOf(first!.value)).toMatchObject({
      reason: 'card_balance_too_low',
      balance_type: 'card',
      card_code: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
  });

  it('docs/errors.md documents every reason', () => {
    const guide = fs.readFileSync(path.join(ROOT, 'docs', 'errors.md'), 'utf8');
    const rows = new Set([...guide.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]));
    expectNoProblems(reasons.filter((r) => !rows.has(r)).map((r) => `docs/errors.md has no row for \`${r}\``));
  });
});
