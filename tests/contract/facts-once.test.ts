// "A fact of the contract is written once, in spec/": no top-level `const` of src/ or scripts/ holds, as a literal,
// a value the contract holds, for these kinds:
// - addresses: a server's default URL or base path (`/v1`, `/api/v1`), anywhere in a top-level const's initializer;
// - limits, fees, tolerances and time-outs: a number of `x-plans` in a const whose name says the kind (TOLERANCE,
//   TIMEOUT, FEE, LIMIT, MINIMUM, MAXIMUM, THRESHOLD), in seconds or, for a name ending in `_MS`, milliseconds;
// - field lists: an array of strings whose set is a schema's property names or an operation's parameter names
//   (with or without the paging parameters).
// Such a constant reads the value from the generated table (generated/openapi-values.js, `contractFacts`), the value
// lists, or the bundle instead. The files are read with the TypeScript compiler's parser.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/lib/paths.ts';
import { contractModel } from '../../src/contract/model.ts';

type Json = Record<string, any>;
const bundle = JSON.parse(fs.readFileSync(path.join(ROOT, 'generated/openapi.json'), 'utf8')) as Json;

const model = contractModel(bundle);

/** Every server of the document and its operations: their default URLs and those URLs' paths. */
function addresses(): Set<string> {
  const servers: Json[] = [...(bundle.servers ?? [])];
  for (const operation of model.operations) {
    servers.push(...((operation.item.node.servers ?? []) as Json[]), ...((operation.node.servers ?? []) as Json[]));
  }
  const found = new Set<string>();
  for (const server of servers) {
    for (const variable of Object.values((server.variables ?? {}) as Json)) {
      const url = String(variable.default);
      found.add(url);
      found.add(new URL(url).pathname.replace(/\/$/, ''));
    }
  }
  return found;
}

/** The numbers of `x-plans` by their key path (`limits.webhook_timestamp_tolerance_seconds`, `fees.topup_fee.percent`). */
function planNumbers(): { key: string; value: number }[] {
  const out: { key: string; value: number }[] = [];
  const walk = (node: unknown, key: string) => {
    if (typeof node === 'number') out.push({ key, value: node });
    else if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) walk(v, key ? `${key}.${k}` : k);
  };
  const plans = bundle['x-plans'] as Json;
  walk({ limits: plans.limits, fees: plans.fees }, '');
  return out;
}

/** The field lists of the contract: each schema's property names, each operation's parameter names. */
function fieldLists(): Map<string, string> {
  const lists = new Map<string, string>();
  const add = (names: string[], where: string) => {
    if (names.length < 2) return;
    const key = [...new Set(names)].sort().join(',');
    if (!lists.has(key)) lists.set(key, where);
  };
  for (const name of model.schemaNames) {
    add(Object.keys((model.schema(name)?.node as Json | undefined)?.properties ?? {}), `components.schemas.${name}`);
  }
  for (const operation of model.operations) {
    // The operation's own parameters (a path item's shared ones are listed with no operation's).
    if (!Array.isArray(operation.node.parameters)) continue;
    const params = operation.node.parameters.map((p) => model.resolve(p).node as Json);
    const where = `${operation.method.toUpperCase()} ${operation.path} parameters`;
    add(
      params.map((p) => p.name),
      where,
    );
    for (const place of ['query', 'path', 'header']) {
      const names = params.filter((p) => p.in === place).map((p) => p.name as string);
      add(names, `${where} in ${place}`);
      add(
        names.filter((n) => n !== 'page' && n !== 'limit'),
        `${where} in ${place}, without page and limit`,
      );
    }
  }
  return lists;
}

const NUMBER_KINDS: { name: RegExp; key: RegExp }[] = [
  { name: /TOLERANCE/, key: /tolerance/ },
  { name: /TIMEOUT/, key: /timeout/ },
  { name: /FEE/, key: /^fees\./ },
  { name: /LIMIT|MINIMUM|MAXIMUM|THRESHOLD/, key: /^limits\./ },
];

/** The .ts files of a folder, recursively. */
function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).flatMap((entry) => {
    const file = path.join(entry.parentPath, entry.name);
    return entry.isFile() && file.endsWith('.ts') && !file.endsWith('.d.ts') ? [file] : [];
  });
}

/** The literal an expression is, past `as const`, `satisfies`, parentheses and a unary minus. */
function unwrap(node: ts.Expression): ts.Expression {
  let current = node;
  while (ts.isAsExpression(current) || ts.isSatisfiesExpression(current) || ts.isParenthesizedExpression(current))
    current = current.expression;
  return current;
}

function numberOf(node: ts.Expression): number | undefined {
  const literal = unwrap(node);
  if (ts.isNumericLiteral(literal)) return Number(literal.text.replace(/_/g, ''));
  return undefined;
}

function stringOf(node: ts.Node): string | undefined {
  return ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) ? node.text : undefined;
}

/** The constants that repeat a contract fact in one file's source text, one line each. */
function repeatedFacts(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const addressSet = addresses();
  const numbers = planNumbers();
  const lists = fieldLists();
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement) || !(statement.declarationList.flags & ts.NodeFlags.Const)) continue;
    for (const declaration of statement.declarationList.declarations) {
      if (!ts.isIdentifier(declaration.name) || !declaration.initializer) continue;
      const name = declaration.name.text;
      const line = source.getLineAndCharacterOfPosition(declaration.getStart()).line + 1;
      const at = `${path.relative(ROOT, file)}:${line}: ${name}`;
      // Addresses: any string literal of the initializer.
      const visit = (node: ts.Node) => {
        const value = stringOf(node);
        if (value !== undefined && addressSet.has(value)) found.push(`${at} types the address ${JSON.stringify(value)}`);
        ts.forEachChild(node, visit);
      };
      visit(declaration.initializer);
      // Limits, fees, tolerances, time-outs, by the constant's name.
      const value = numberOf(declaration.initializer);
      if (value !== undefined) {
        const upper = name.toUpperCase();
        for (const kind of NUMBER_KINDS) {
          if (!kind.name.test(upper)) continue;
          for (const fact of numbers) {
            if (!kind.key.test(fact.key)) continue;
            const scaled = upper.endsWith('_MS') && fact.key.endsWith('_seconds') ? fact.value * 1000 : fact.value;
            if (scaled === value) found.push(`${at} = ${value} types x-plans.${fact.key}`);
          }
        }
      }
      // Field lists.
      const initializer = unwrap(declaration.initializer);
      if (ts.isArrayLiteralExpression(initializer)) {
        const strings = initializer.elements.map(stringOf);
        if (strings.length >= 2 && strings.every((s) => s !== undefined)) {
          const where = lists.get([...new Set(strings)].sort().join(','));
          if (where) found.push(`${at} lists the fields of ${where}`);
        }
      }
    }
  }
  return found;
}

describe('facts written once', () => {
  it('no constant of src/ or scripts/ repeats an address, a limit, a fee or a field list of the contract', () => {
    const files = [...sourceFiles(path.join(ROOT, 'src')), ...sourceFiles(path.join(ROOT, 'scripts'))];
    const found = files.flatMap((file) => repeatedFacts(file, fs.readFileSync(file, 'utf8')));
    expect(found).toEqual([]);
  });

  it('finds each kind', () => {
    const text = [
      "const GIFT_CARD_BASE = '/api/v1';",
      "export const BASES = ['/v1', '/api/v1'] as const;",
      'export const DEFAULT_TOLERANCE_SECONDS = 300;',
      'const DELIVERY_TIMEOUT_MS = 10_000;',
      "const FILTERS = ['status', 'verification_level', 'external_reference'] as const;",
      'const PAGE = 300;',
      "const OTHER = ['status', 'code'];",
    ].join('\n');
    const found = repeatedFacts(path.join(ROOT, 'src/example.ts'), text).map((line) => line.replace(/ types .*| lists .*| = .*/, ''));
    expect(found).toEqual([
      'src/example.ts:1: GIFT_CARD_BASE',
      'src/example.ts:2: BASES',
      'src/example.ts:2: BASES',
      'src/example.ts:3: DEFAULT_TOLERANCE_SECONDS',
      'src/example.ts:4: DELIVERY_TIMEOUT_MS',
      'src/example.ts:5: FILTERS',
    ]);
  });
});
