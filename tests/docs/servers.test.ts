// The servers of the docs copy (scripts/docs/servers.ts): the local sandbox beside every production address,
// and plain-text descriptions (Redoc shows server descriptions as typed, backticks included).
import { describe, expect, it } from 'vitest';
import { docsDocument } from '../../scripts/docs/reference.ts';
import { addSandboxServers, docsServers, plainText, SANDBOX_ORIGIN } from '../../scripts/docs/servers.ts';
import { findProvisional } from '../../scripts/docs/provisional.ts';
import { built } from '../contract/helpers.ts';
import { contractModel } from '../../src/contract/model.ts';

type Server = { url: string; description?: string; variables?: Record<string, { default: string; description?: string }> };

/** Every `servers` list of a document: [where, list]. */
function serverLists(doc: any): [string, Server[]][] {
  const lists: [string, Server[]][] = [];
  if (doc.servers) lists.push(['document', doc.servers]);
  for (const op of contractModel(doc).operations) {
    const [item, own] = [op.item.node as any, op.node as any];
    if (item.servers && !lists.some(([where]) => where === op.path)) lists.push([op.path, item.servers]);
    if (own.servers) lists.push([`${op.method} ${op.path}`, own.servers]);
  }
  return lists;
}

const descriptions = (server: Server) => [
  server.description ?? '',
  ...Object.values(server.variables ?? {}).map((v) => v.description ?? ''),
];

describe('the servers of the docs copy', () => {
  it('turns inline markdown into plain text', () => {
    expect(plainText('your `sk_test_` and ``a `b` c`` keys')).toBe('your sk_test_ and a `b` c keys');
    expect(plainText('**Refused** with *422*, see [errors](#/section/errors).')).toBe('Refused with 422, see errors.');
    expect(plainText('different from `{base_url}`;\n  it ends in `/api/v1`.')).toBe('different from {base_url}; it ends in /api/v1.');
    expect(plainText('sk_test_ and 2 * 3 * 4 stay')).toBe('sk_test_ and 2 * 3 * 4 stay');
  });

  it('shows each production address as a URL (its variable named in the description) and the local sandbox after it, with plain descriptions', () => {
    const openapi = built().openapi as any;
    const contract = serverLists(openapi);
    expect(contract.length).toBeGreaterThan(1); // the document's servers and the gift card paths' own
    const docs = new Map(serverLists(docsDocument(openapi)));
    for (const [where, servers] of contract) {
      const shown = docs.get(where) ?? [];
      expect(
        shown.map((s) => s.url),
        where,
      ).toEqual(
        servers.flatMap((s) => {
          const url = s.url.replace(/\{(\w+)\}/g, (_, v: string) => s.variables?.[v]?.default ?? '');
          return [url, `${SANDBOX_ORIGIN}${new URL(url).pathname}`];
        }),
      );
      // Redoc reads a url without a scheme as relative to the page: every url shown is absolute.
      for (const server of shown) expect(server.url, where).toMatch(/^https?:\/\/[^{}]+$/);
      expect(shown[0]?.description, where).toContain(servers[0]!.url);
      for (const server of shown) {
        for (const text of descriptions(server)) expect(text, `${where} ${server.url}`).not.toMatch(/[`*]|\]\(/);
      }
      expect(shown[0]?.description, where).toMatch(/^(The production|Production: )/);
      expect(shown[1]?.description, where).toMatch(/^Local sandbox, on your machine: npx partner-api-sandbox/);
      expect(shown[1]?.description, where).toContain('sk_test_');
    }
    expect(docs.get('document')?.map((s) => s.url)).toEqual(['https://api.partner-api.test/v1', 'http://127.0.0.1:4020/v1']);
    expect(docs.get('/gift-cards/orders')?.map((s) => s.url)).toEqual([
      'https://api.partner-api.test/api/v1',
      'http://127.0.0.1:4020/api/v1',
    ]);
    expect(docs.get('/gift-cards/orders')?.[1]?.description).toContain('{alt_base_url}');
  });

  it('leaves the contract as it is: no loopback server in the bundle', () => {
    const openapi = built().openapi as any;
    const before = JSON.stringify(openapi);
    docsDocument(openapi);
    expect(JSON.stringify(openapi)).toBe(before);
    expect(
      serverLists(openapi)
        .flatMap(([, list]) => list.map((s) => s.url))
        .filter((url) => url.includes('127.0.0.1')),
    ).toEqual([]);
  });

  it('adds no sandbox to a loopback server the list already has, nor twice, nor to the webhooks', () => {
    const local = { url: 'http://127.0.0.1:4020/v1', description: 'Already `here`.' };
    const production = { url: 'https://api.example.test/v1', description: 'The production `address`.' };
    expect(docsServers([production, local])).toEqual([
      { url: production.url, description: 'The production address.' },
      { url: local.url, description: 'Already here.' },
    ]);
    const doc: any = {
      servers: [{ url: 'https://a.example.test/v1', description: 'Live.' }, { url: 'https://b.example.test/v1' }],
      webhooks: { 'card.frozen': { post: { servers: [{ url: 'https://partner.example.test/in' }] } } },
    };
    addSandboxServers(doc);
    expect(doc.servers.map((s: Server) => s.url)).toEqual([
      'https://a.example.test/v1',
      `${SANDBOX_ORIGIN}/v1`,
      'https://b.example.test/v1',
    ]);
    expect(doc.servers[0].description).toBe('Production: live.');
    expect(doc.webhooks['card.frozen'].post.servers).toEqual([{ url: 'https://partner.example.test/in' }]);
  });

  it('lists the provisional servers by url in the provisional parts', () => {
    const parts = findProvisional(built().openapi as never).filter((p) => p.group === 'Servers');
    expect(parts.map((p) => p.where)).toContain('`{base_url}`');
    expect(parts.map((p) => p.where)).toContain('`{alt_base_url}` of `/gift-cards/orders`: variable `alt_base_url`');
    expect(parts.every((p) => !p.where.includes('#/'))).toBe(true);
  });
});
