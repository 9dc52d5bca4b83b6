// The sandbox's layout (docs/structure.md, "The sandbox"): a product folder's handlers.ts is its HTTP adapter
// only, no product imports the simulation API's folder, and the core and the HTTP plugins touch no product's
// table. Read from the source, so a helper exported from a handlers.ts, or a product table queried from core/,
// fails here.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SANDBOX = path.resolve(import.meta.dirname, '../../src/sandbox');
const SHARED = new Set(['core', 'http', 'simulation']);

const folders = fs
  .readdirSync(SANDBOX, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const products = folders.filter((name) => !SHARED.has(name));
const sources = (folder: string): string[] =>
  fs
    .readdirSync(path.join(SANDBOX, folder))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => path.join(folder, f));
const allSources = [...fs.readdirSync(SANDBOX).filter((f) => f.endsWith('.ts')), ...folders.flatMap(sources)];
const read = (file: string): string => fs.readFileSync(path.join(SANDBOX, file), 'utf8');
/** The relative modules a source file imports, resolved from src/sandbox (`cards/handlers.js`). */
const importsOf = (file: string): string[] =>
  [...read(file).matchAll(/^import [^;]*? from '(\.[^']+)';/gms)].map((m) => path.posix.join(path.posix.dirname(file), m[1]!));

describe('the sandbox layout', () => {
  it('finds the product folders', () => {
    expect(products).toEqual(expect.arrayContaining(['cards', 'customers', 'kyc', 'payouts']));
  });

  it('lets only the sandbox index import a handlers.ts', () => {
    const importers = allSources.filter((file) => file !== 'index.ts' && importsOf(file).some((m) => m.endsWith('/handlers.js')));
    expect(importers).toEqual([]);
  });

  it('gives each handlers.ts one export: the registration of its operations', () => {
    for (const product of products) {
      const file = path.join(product, 'handlers.ts');
      if (!fs.existsSync(path.join(SANDBOX, file))) continue;
      expect([...read(file).matchAll(/^export /gm)], file).toHaveLength(1);
    }
  });

  it('keeps products off simulation/', () => {
    const importers = products.flatMap(sources).filter((file) => importsOf(file).some((m) => m.startsWith('simulation/')));
    expect(importers).toEqual([]);
  });

  it('keeps the product tables out of core/ and http/', () => {
    const tables = products.flatMap((product) => {
      const file = path.join(SANDBOX, product, 'tables.ts');
      return fs.existsSync(file) ? [...fs.readFileSync(file, 'utf8').matchAll(/CREATE TABLE IF NOT EXISTS (\w+)/g)].map((m) => m[1]!) : [];
    });
    expect(tables).toEqual(expect.arrayContaining(['customers', 'cards', 'payouts']));
    const touching = [...sources('core'), ...sources('http')].flatMap((file) =>
      tables
        .filter((table) => new RegExp(`\\b(FROM|INTO|UPDATE|JOIN|TABLE IF NOT EXISTS) ${table}\\b`).test(read(file)))
        .map((table) => `${file}: ${table}`),
    );
    expect(touching).toEqual([]);
  });
});
