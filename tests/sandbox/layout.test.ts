// The sandbox's layout (docs/structure.md, "The sandbox"): a product is declared once, by its folder's
// product.ts, and src/sandbox/products.ts is the one list of them; a product folder's handlers.ts is its HTTP
// adapter only, a product's SQL is in its repository.ts and tables.ts, no product imports the simulation API's
// folder, and the core and the HTTP plugins touch no product's table. Read from the source, so a second list of
// products, a job registered outside a declaration, a snapshot part registered outside core/ (a product declares
// its own), a helper exported from a handlers.ts, a statement in a rule file, or a product table queried from
// core/, fails here.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SANDBOX = path.resolve(import.meta.dirname, '../../src/sandbox');
const SHARED = new Set(['core', 'http', 'simulation', 'fixtures']);

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

/**
 * The snapshot part registrations in a source: `snapshotsOf(core).register(`, or `.register(` on a name bound to
 * `snapshotsOf(...)` or typed `Snapshots`, or `register` taken out of one.
 */
function snapshotRegistrations(source: string): string[] {
  const chained = [...source.matchAll(/\bsnapshotsOf\s*\([^)]*\)\s*\??\.\s*register\s*\(/g)].map((m) => m[0]);
  const bound = new Set([
    ...[...source.matchAll(/\b(\w+)\s*(?::[^=;]*)?=\s*(?:await\s+)?snapshotsOf\s*\(/g)].map((m) => m[1]!),
    ...[...source.matchAll(/\b(\w+)\s*\??:\s*Snapshots\b/g)].map((m) => m[1]!),
  ]);
  const onBound = [...bound].flatMap((name) =>
    [...source.matchAll(new RegExp(`\\b${name}\\s*\\??\\.\\s*register\\s*\\(`, 'g'))].map((m) => m[0]),
  );
  const destructured = [...source.matchAll(/\{[^}]*\bregister\b[^}]*\}\s*=\s*snapshotsOf\b/g)].map((m) => m[0]);
  return [...chained, ...onBound, ...destructured];
}

describe('the sandbox layout', () => {
  it('finds the product folders', () => {
    expect(products).toEqual(expect.arrayContaining(['cards', 'customers', 'kyc', 'payouts']));
  });

  it('declares each product in its product.ts, one declaration named for its folder', () => {
    for (const product of products) {
      const file = path.join(product, 'product.ts');
      expect(fs.existsSync(path.join(SANDBOX, file)), file).toBe(true);
      const source = read(file);
      expect([...source.matchAll(/^export /gm)], file).toHaveLength(1);
      expect(source, file).toMatch(/^export const product: ProductModule = \{$/m);
      expect(source, file).toContain(`folder: '${product}',`);
    }
  });

  it('lists the declarations in src/sandbox/products.ts only, each once', () => {
    const importers = allSources.filter((file) => importsOf(file).some((m) => m.endsWith('/product.js')));
    expect(importers).toEqual(['products.ts']);
    const listed = importsOf('products.ts').filter((m) => m.endsWith('/product.js'));
    expect(listed.sort()).toEqual(products.map((product) => `${product}/product.js`).sort());
  });

  it('keeps the index, the core, the HTTP plugins, the simulation API and the fixtures off the product folders', () => {
    const outside = ['index.ts', 'products.ts', ...[...SHARED].flatMap(sources)];
    const reaching = outside.flatMap((file) =>
      importsOf(file)
        .filter((m) => products.includes(m.split('/')[0]!))
        .map((m) => `${file} imports ${m}`),
    );
    expect(reaching.filter((line) => !/^products\.ts imports [^/]+\/product\.js$/.test(line))).toEqual([]);
  });

  it("lets only a product's product.ts import its handlers.ts, tables.ts and simulation.ts", () => {
    const declarationOf = (module: string) => path.posix.join(path.posix.dirname(module), 'product.ts');
    const offending = allSources.flatMap((file) =>
      importsOf(file)
        .filter((m) => /\/(handlers|tables|simulation)\.js$/.test(m) && declarationOf(m) !== file)
        .map((m) => `${file} imports ${m}`),
    );
    expect(offending).toEqual([]);
  });

  it('registers the jobs of a product through its declaration only', () => {
    const registering = products.flatMap(sources).filter((file) => /\bscheduler\s*\.\s*register/.test(read(file)));
    expect(registering).toEqual([]);
    for (const product of products) {
      const declared = read(path.join(product, 'product.ts'));
      const jobs = sources(product).flatMap((file) => [...read(file).matchAll(/^export const (\w+) = defineJob\b/gm)].map((m) => m[1]!));
      for (const job of jobs) expect(declared, `${product}/product.ts lists ${job}`).toMatch(new RegExp(`\\b${job}\\b`));
    }
  });

  it('registers snapshot parts in core/ only: a product declares its part in its product.ts', () => {
    const forms = [
      "snapshotsOf(core).register('cards', part);",
      'const snapshots = snapshotsOf(core);\nsnapshots.register(name, part);',
      'function keep(kept: Snapshots) { kept.register(name, part); }',
      'const kept: Snapshots = snapshotsOf(core);\nkept?.register(name, part);',
      'const { register } = snapshotsOf(core);',
    ];
    for (const form of forms) expect(snapshotRegistrations(form), form).toHaveLength(1);
    // fixtures/load.ts and the simulation API take and restore snapshots: reading them is no registration.
    const readers = allSources.filter((file) => !file.startsWith('core/') && /\bsnapshotsOf\s*\(/.test(read(file)));
    expect(readers).toEqual(expect.arrayContaining(['fixtures/load.ts', 'simulation/snapshots.ts']));
    const registering = allSources
      .filter((file) => !file.startsWith('core/'))
      .flatMap((file) => snapshotRegistrations(read(file)).map((call) => `${file}: ${call}`));
    expect(registering).toEqual([]);
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
