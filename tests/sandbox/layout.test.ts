// The sandbox's layout (docs/structure.md, "The sandbox"): a product folder's handlers.ts is its HTTP adapter
// only, a product's SQL is in its repository.ts and tables.ts, no product imports the simulation API's folder,
// and the core and the HTTP plugins touch no product's table. Read from the source, so a helper exported from a
// handlers.ts, a statement in a rule file, or a product table queried from core/, fails here.
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

  it("keeps a product's SQL in its repository.ts and tables.ts", () => {
    const statement = [
      // a statement run on the store: `db.run(`, `core.db.get<Row>(`, `this.db.all(` ...
      /\bdb\s*\.\s*(?:run|get|all|prepare|exec)\s*[<(]/,
      // or the text of one, wherever it is passed
      /['"`]\s*(?:SELECT\b[^'"`]*\bFROM|INSERT (?:OR \w+ )?INTO|UPDATE \S+ SET|DELETE FROM|CREATE (?:TABLE|INDEX)|WITH \w+ AS)\b/,
    ];
    const offending = products
      .flatMap(sources)
      .filter((file) => !/\/(repository|tables)\.ts$/.test(file))
      .filter((file) => statement.some((re) => re.test(read(file))));
    expect(offending).toEqual([]);
  });

  it('keeps the store out of a handlers.ts', () => {
    const importers = products
      .map((product) => path.join(product, 'handlers.ts'))
      .filter((file) => fs.existsSync(path.join(SANDBOX, file)))
      .filter((file) => importsOf(file).some((m) => m === 'core/store.js' || m === 'core/sqlite.js'));
    expect(importers).toEqual([]);
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
