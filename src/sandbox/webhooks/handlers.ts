// Webhook endpoints (tag "Webhook endpoints"): create with a 2xx ping, list, update (a changed url is pinged
// again), disable and enable (1 active endpoint on Découverte, 10 on other plans), rotate the secret (the
// old one stops signing at once), test ping, delivery history.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Account } from '../core/accounts.js';
import type { Handlers, SandboxCore } from '../core/context.js';
import { createdRange, page, pageWindow } from '../core/context.js';
import { contractLimits, forPlan } from '../core/limits.js';
import { ApiError, apiError, notFound, planLimitReached } from '../core/errors.js';
import { EndpointRepository, deliveryOf, endpointOf, type EndpointRow } from './repository.js';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `whsec_` and 32 letters or digits. */
export function newSecret(): string {
  return `whsec_${[...randomBytes(32)].map((b) => ALPHANUMERIC[b % ALPHANUMERIC.length]).join('')}`;
}

/** Active webhook endpoints the plan allows (the contract's limits table). */
export const activeEndpointAllowance = (account: Account): number => forPlan(contractLimits().activeWebhookEndpoints, account.plan)!;

/** The designed ping: an event envelope of type `webhook.ping`, signed with the endpoint's secret. */
export async function ping(core: SandboxCore, account: Account, endpointCode: string, url: string, secret: string) {
  const uuid = randomUUID();
  const body = JSON.stringify({
    id: `evt_${uuid}`,
    type: 'webhook.ping',
    created_at: core.clock.iso(),
    mode: account.mode,
    data: { endpoint_code: endpointCode, url },
  });
  return core.delivery.post(url, body, secret, `idem_${uuid.replaceAll('-', '')}`);
}

function pingFailed(url: string, status: number | null, failure: string | null): ApiError {
  return apiError('VALIDATION_ERROR', `The ping to ${url} did not get a 2xx answer (${failure ?? 'no answer'}).`, {
    fields: [{ field: 'url', message: `must answer the ping with a 2xx (${failure ?? 'no answer'})` }],
    reason: 'webhook_ping_failed',
    ping_status: status,
  });
}

function checkAllowance(repo: EndpointRepository, account: Account): void {
  const allowance = activeEndpointAllowance(account);
  if (repo.activeCount(account.id) >= allowance) {
    throw planLimitReached(`Your plan allows ${allowance} active webhook endpoint${allowance === 1 ? '' : 's'}.`, { limit: 'active_webhook_endpoints', allowed: allowance });
  }
}

export function webhookEndpoints(core: SandboxCore): Handlers {
  const repo = new EndpointRepository(core.db);
  const { clock } = core;
  const find = (account: Account, code: string): EndpointRow => {
    const row = repo.find(account.id, code);
    if (!row) throw notFound('Webhook endpoint');
    return row;
  };
  return {
    async createWebhookEndpoint({ account, body }) {
      checkAllowance(repo, account);
      const code = randomUUID();
      const secret = newSecret();
      const result = await ping(core, account, code, body.url, secret);
      if (result.failure !== null) throw pingFailed(body.url, result.status, result.failure);
      const now = clock.now();
      core.db.transaction(() => {
        checkAllowance(repo, account); // another endpoint may have been created during the ping
        repo.insert({ code, account_id: account.id, url: body.url, secret, events: JSON.stringify(body.events), description: body.description ?? null, is_active: 1, created_at: now, updated_at: now });
      });
      return {
        data: { code, url: body.url, secret, events: body.events, is_active: true, description: body.description ?? null, created_at: clock.iso(now) },
      };
    },
    // Read and delete one endpoint (sandbox-money).
    getWebhookEndpoint({ account, params }) {
      return { data: endpointOf(clock, find(account, params.code)) };
    },

    /** Deletes the row; its pending deliveries fail without an attempt, and its history goes with it. */
    deleteWebhookEndpoint({ account, params }) {
      return core.db.transaction(() => {
        const row = find(account, params.code);
        core.db.run("UPDATE deliveries SET status = 'failed', next_retry_at = NULL WHERE endpoint_code = ? AND status = 'pending'", row.code);
        core.db.run('DELETE FROM webhook_endpoints WHERE code = ?', row.code);
        return { data: { code: row.code, deleted: true as const } };
      });
    },

    listWebhookEndpoints({ account }) {
      return { data: repo.list(account.id).map((r) => endpointOf(clock, r)) };
    },
    async updateWebhookEndpoint({ account, params, body }) {
      const row = find(account, params.code);
      if (body.url !== undefined && body.url !== row.url) {
        const result = await ping(core, account, row.code, body.url, row.secret);
        if (result.failure !== null) throw pingFailed(body.url, result.status, result.failure);
      }
      return core.db.transaction(() => {
        const current = find(account, params.code);
        repo.update(current.code, {
          url: body.url ?? current.url,
          events: body.events ? JSON.stringify(body.events) : current.events,
          description: body.description ?? current.description,
          is_active: current.is_active,
          secret: current.secret,
          updated_at: clock.now(),
        });
        return { data: endpointOf(clock, find(account, params.code)) };
      });
    },
    disableWebhookEndpoint({ account, params }) {
      return core.db.transaction(() => {
        const row = find(account, params.code);
        if (row.is_active === 1) repo.update(row.code, { ...row, is_active: 0, updated_at: clock.now() });
        return { data: endpointOf(clock, find(account, params.code)) };
      });
    },
    enableWebhookEndpoint({ account, params }) {
      return core.db.transaction(() => {
        const row = find(account, params.code);
        if (row.is_active === 0) {
          checkAllowance(repo, account);
          repo.update(row.code, { ...row, is_active: 1, updated_at: clock.now() });
        }
        return { data: endpointOf(clock, find(account, params.code)) };
      });
    },
    rotateWebhookEndpointSecret({ account, params }) {
      return core.db.transaction(() => {
        const row = find(account, params.code);
        const secret = newSecret();
        const now = clock.now();
        repo.update(row.code, { ...row, secret, updated_at: now });
        return { data: { endpoint_code: row.code, secret, rotated_at: clock.iso(now) } };
      });
    },
    async testWebhookEndpoint({ account, params }) {
      const row = find(account, params.code);
      const tested = clock.now();
      const result = await ping(core, account, row.code, row.url, row.secret);
      return {
        data: {
          endpoint_code: row.code,
          url: row.url,
          success: result.failure === null,
          response_code: result.status,
          duration_ms: result.durationMs,
          failure_reason: result.failure,
          tested_at: clock.iso(tested),
        },
      };
    },
    listWebhookEndpointDeliveries({ account, params, query }) {
      find(account, params.code);
      const [from, to] = createdRange(query);
      const [limit, offset] = pageWindow(query);
      const { rows, total } = repo.deliveries(account.id, params.code, limit, offset, from, to);
      return page(rows.map((r) => deliveryOf(clock, r)), total, query);
    },
  };
}
