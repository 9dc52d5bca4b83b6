// The webhook endpoints' rules: the plan's allowance of active endpoints, and the ping a new or changed url must
// answer with a 2xx (sent under the sandbox's target policy, which also decides what its caller is told of a
// failure: core/webhook-targets.ts). A create or an update pings before its transaction, so each checks again
// what another request may have changed during the ping.
import { randomUUID } from 'node:crypto';
import type { components } from '../../../generated/openapi.js';
import type { Account } from '../core/accounts.js';
import type { Call, SandboxCore } from '../core/context.js';
import { sandboxModel } from '../core/contract.js';
import type { PostResult } from '../core/delivery.js';
import { type ApiError, apiError, planLimitReached } from '../core/errors.js';
import { contractLimits, forPlan } from '../core/limits.js';
import { newSecret, type EndpointRepository, type EndpointRow } from './repository.js';

/** Active webhook endpoints the plan allows (the contract's limits table). */
export const activeEndpointAllowance = (account: Account): number => forPlan(contractLimits().activeWebhookEndpoints, account.plan)!;

/** The ping's type, as the contract's ping schema gives it (`x-ping`: `webhook.ping`, provisional). */
export const PING_TYPE = sandboxModel().ping.type;

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

type NewEndpoint = Parameters<EndpointRepository['insert']>[0];

/** An active endpoint, once its url answered the ping; returns its row. */
export async function createEndpoint(
  core: SandboxCore,
  repo: EndpointRepository,
  account: Account,
  body: Call<'createWebhookEndpoint'>['body'],
): Promise<NewEndpoint> {
  checkAllowance(repo, account);
  const code = randomUUID();
  const secret = newSecret();
  const result = await ping(core, account, code, body.url, secret);
  if (result.failure !== null) throw pingFailed(core, body.url, result);
  const now = core.clock.now();
  const row: NewEndpoint = {
    code,
    account_id: account.id,
    url: body.url,
    secret,
    events: JSON.stringify(body.events),
    description: body.description ?? null,
    is_active: 1,
    created_at: now,
    updated_at: now,
  };
  core.db.transaction(() => {
    checkAllowance(repo, account); // another endpoint may have been created during the ping
    repo.insert(row);
  });
  return row;
}

/** Changes an endpoint's url (pinged first when it changes), events or description; `find` reads it again after the ping. */
export async function updateEndpoint(
  core: SandboxCore,
  repo: EndpointRepository,
  account: Account,
  row: EndpointRow,
  body: Call<'updateWebhookEndpoint'>['body'],
  find: () => EndpointRow,
): Promise<EndpointRow> {
  if (body.url !== undefined && body.url !== row.url) {
    const result = await ping(core, account, row.code, body.url, row.secret);
    if (result.failure !== null) throw pingFailed(core, body.url, result);
  }
  return core.db.transaction(() => {
    const current = find();
    repo.update(current.code, {
      url: body.url ?? current.url,
      events: body.events ? JSON.stringify(body.events) : current.events,
      description: body.description ?? current.description,
      is_active: current.is_active,
      secret: current.secret,
      updated_at: core.clock.now(),
    });
    return find();
  });
}

/** Activates or deactivates an endpoint; activating one counts against the plan's allowance. */
export function setEndpointActive(core: SandboxCore, repo: EndpointRepository, account: Account, row: EndpointRow, active: boolean): void {
  if ((row.is_active === 1) === active) return;
  if (active) checkAllowance(repo, account);
  repo.update(row.code, { ...row, is_active: active ? 1 : 0, updated_at: core.clock.now() });
}
