// The webhook endpoints' rules: the plan's allowance of active endpoints, and the ping a new or changed url must
// answer with a 2xx (sent under the sandbox's target policy, which also decides what its caller is told of a
// failure: core/webhook-targets.ts).
import { randomUUID } from 'node:crypto';
import type { components } from '../../../generated/openapi.js';
import { webhookPing } from '../../contract/bundle.js';
import type { Account } from '../core/accounts.js';
import type { SandboxCore } from '../core/context.js';
import { sandboxDocument } from '../core/contract.js';
import type { PostResult } from '../core/delivery.js';
import { type ApiError, apiError, planLimitReached } from '../core/errors.js';
import { contractLimits, forPlan } from '../core/limits.js';
import type { EndpointRepository } from './repository.js';

/** Active webhook endpoints the plan allows (the contract's limits table). */
export const activeEndpointAllowance = (account: Account): number => forPlan(contractLimits().activeWebhookEndpoints, account.plan)!;

/** The ping's type, as the contract's ping schema gives it (`x-ping`: `webhook.ping`, provisional). */
export const PING_TYPE = webhookPing(sandboxDocument()).type;

/** The ping: an event envelope of the contract's ping schema, signed with the endpoint's secret. */
export async function ping(core: SandboxCore, account: Account, endpointCode: string, url: string, secret: string) {
  const uuid = randomUUID();
  const body = JSON.stringify({
    id: `evt_${uuid}`,
    type: PING_TYPE,
    created_at: core.clock.iso(),
    mode: account.mode,
    data: { endpoint_code: endpointCode, url },
  });
  const result = await core.delivery.post(url, body, secret, `idem_${uuid.replaceAll('-', '')}`);
  // The ping as sent: the test ping's result shows it (WebhookTestResult.ping).
  return { ...result, ping: JSON.parse(body) as components['schemas']['WebhookPing'] };
}

export function pingFailed(core: SandboxCore, url: string, result: PostResult): ApiError {
  const reason = core.delivery.targets.callerReason(result) ?? 'no answer';
  const policy =
    core.delivery.targets.policy === 'public'
      ? ' This sandbox delivers to public addresses only, and does not say why a ping got no answer.'
      : '';
  return apiError('VALIDATION_ERROR', `The ping to ${url} did not get a 2xx answer (${reason}).${policy}`, {
    fields: [{ field: 'url', message: `must answer the ping with a 2xx (${reason})` }],
    reason: 'webhook_ping_failed',
    ping_status: result.status,
  });
}

export function checkAllowance(repo: EndpointRepository, account: Account): void {
  const allowance = activeEndpointAllowance(account);
  if (repo.activeCount(account.id) >= allowance) {
    throw planLimitReached(`Your plan allows ${allowance} active webhook endpoint${allowance === 1 ? '' : 's'}.`, {
      limit: 'active_webhook_endpoints',
      allowed: allowance,
    });
  }
}
