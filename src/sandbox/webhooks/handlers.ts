// Webhook endpoints (tag "Webhook endpoints"): create with a 2xx ping, list, update (a changed url is pinged
// again), disable and enable (1 active endpoint on Découverte, 10 on other plans), rotate the secret (the
// old one stops signing at once), test ping, delivery history. The ping and the plan's allowance are in
// ./rules.ts, the rows and shapes in ./repository.ts.
import { randomUUID } from 'node:crypto';
import type { Account } from '../core/accounts.js';
import type { Handlers, SandboxCore } from '../core/context.js';
import { createdRange, page, pageWindow } from '../core/context.js';
import { notFound } from '../core/errors.js';
import { EndpointRepository, deliveryOf, endpointOf, newSecret, type EndpointRow } from './repository.js';
import { checkAllowance, ping, pingFailed } from './rules.js';

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
      if (result.failure !== null) throw pingFailed(core, body.url, result);
      const now = clock.now();
      core.db.transaction(() => {
        checkAllowance(repo, account); // another endpoint may have been created during the ping
        repo.insert({
          code,
          account_id: account.id,
          url: body.url,
          secret,
          events: JSON.stringify(body.events),
          description: body.description ?? null,
          is_active: 1,
          created_at: now,
          updated_at: now,
        });
      });
      return {
        data: {
          code,
          url: body.url,
          secret,
          events: body.events,
          is_active: true,
          description: body.description ?? null,
          created_at: clock.iso(now),
        },
      };
    },
    getWebhookEndpoint({ account, params }) {
      return { data: endpointOf(clock, find(account, params.code)) };
    },

    /** Deletes the row; its pending deliveries fail without an attempt, and its history goes with it. */
    deleteWebhookEndpoint({ account, params }) {
      const row = find(account, params.code);
      repo.delete(account.id, row.code);
      return { data: { code: row.code, deleted: true as const } };
    },

    listWebhookEndpoints({ account }) {
      return { data: repo.list(account.id).map((r) => endpointOf(clock, r)) };
    },
    async updateWebhookEndpoint({ account, params, body }) {
      const row = find(account, params.code);
      if (body.url !== undefined && body.url !== row.url) {
        const result = await ping(core, account, row.code, body.url, row.secret);
        if (result.failure !== null) throw pingFailed(core, body.url, result);
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
      const row = find(account, params.code);
      if (row.is_active === 1) repo.update(row.code, { ...row, is_active: 0, updated_at: clock.now() });
      return { data: endpointOf(clock, find(account, params.code)) };
    },
    enableWebhookEndpoint({ account, params }) {
      const row = find(account, params.code);
      if (row.is_active === 0) {
        checkAllowance(repo, account);
        repo.update(row.code, { ...row, is_active: 1, updated_at: clock.now() });
      }
      return { data: endpointOf(clock, find(account, params.code)) };
    },
    rotateWebhookEndpointSecret({ account, params }) {
      const row = find(account, params.code);
      const secret = newSecret();
      const now = clock.now();
      repo.update(row.code, { ...row, secret, updated_at: now });
      return { data: { endpoint_code: row.code, secret, rotated_at: clock.iso(now) } };
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
          failure_reason: core.delivery.targets.callerReason(result),
          tested_at: clock.iso(tested),
          ping: result.ping,
        },
      };
    },
    listWebhookEndpointDeliveries({ account, params, query }) {
      find(account, params.code);
      const [from, to] = createdRange(query);
      const [limit, offset] = pageWindow(query);
      const { rows, total } = repo.deliveries(account.id, params.code, limit, offset, from, to);
      return page(
        rows.map((r) => deliveryOf(clock, r)),
        total,
        query,
      );
    },
  };
}
