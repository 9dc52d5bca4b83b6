// Webhook endpoints (tag "Webhook endpoints"): create with a 2xx ping, list, update (a changed url is pinged
// again), disable and enable (1 active endpoint on Découverte, 10 on other plans), rotate the secret (the
// old one stops signing at once), test ping, delivery history. A create, an update (each with its ping) and
// the plan's allowance are in ./rules.ts, the rows and shapes in ./repository.ts.
import type { Account } from '../core/accounts.js';
import type { Handlers, SandboxCore } from '../core/context.js';
import { createdRange, page, pageWindow } from '../core/context.js';
import { notFound } from '../core/errors.js';
import { EndpointRepository, deliveryOf, endpointOf, newSecret, type EndpointRow } from './repository.js';
import { createEndpoint, ping, setEndpointActive, updateEndpoint } from './rules.js';

type FindEndpoint = (account: Account, code: string) => EndpointRow;

function endpointHandlers(core: SandboxCore, repo: EndpointRepository, find: FindEndpoint): Handlers {
  const { clock } = core;
  return {
    async createWebhookEndpoint({ account, body }) {
      const row = await createEndpoint(core, repo, account, body);
      return {
        data: {
          code: row.code,
          url: row.url,
          secret: row.secret,
          events: body.events,
          is_active: true,
          description: row.description,
          created_at: clock.iso(row.created_at),
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
      const updated = await updateEndpoint(core, repo, account, row, body, () => find(account, params.code));
      return { data: endpointOf(clock, updated) };
    },
    disableWebhookEndpoint({ account, params }) {
      setEndpointActive(core, repo, account, find(account, params.code), false);
      return { data: endpointOf(clock, find(account, params.code)) };
    },
    enableWebhookEndpoint({ account, params }) {
      setEndpointActive(core, repo, account, find(account, params.code), true);
      return { data: endpointOf(clock, find(account, params.code)) };
    },
    rotateWebhookEndpointSecret({ account, params }) {
      const row = find(account, params.code);
      const secret = newSecret();
      const now = clock.now();
      repo.update(row.code, { ...row, secret, updated_at: now });
      return { data: { endpoint_code: row.code, secret, rotated_at: clock.iso(now) } };
    },
  };
}

function pingAndDeliveryHandlers(core: SandboxCore, repo: EndpointRepository, find: FindEndpoint): Handlers {
  const { clock } = core;
  return {
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

export function webhookEndpoints(core: SandboxCore): Handlers {
  const repo = new EndpointRepository(core.db);
  const find: FindEndpoint = (account, code) => {
    const row = repo.find(account.id, code);
    if (!row) throw notFound('Webhook endpoint');
    return row;
  };
  return { ...endpointHandlers(core, repo, find), ...pingAndDeliveryHandlers(core, repo, find) };
}
