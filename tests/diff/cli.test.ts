// End to end: a temporary git repository with a small multi-file spec, a commit, a change in the working
// tree, and the diff CLI run against HEAD (and against the merge base with main).
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIXTURES } from './helpers.ts';

const CLI = path.resolve(import.meta.dirname, '../../scripts/diff/cli.ts');
let repo: string;

const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'pipe' }).toString().trim();
const run = (...args: string[]) => {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: repo, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};
const edit = (file: string, from: string | RegExp, to: string) => {
  const p = path.join(repo, file);
  const before = readFileSync(p, 'utf8');
  const after = before.replace(from, to);
  if (after === before) throw new Error(`edit of ${file} changed nothing`);
  writeFileSync(p, after);
};
const commitAll = (msg: string) => {
  git('add', '-A');
  git('-c', 'user.name=Test', '-c', 'user.email=test@example.test', '-c', 'commit.gpgsign=false', 'commit', '-q', '-m', msg);
};

beforeEach(() => {
  repo = mkdtempSync(path.join(tmpdir(), 'diff-e2e-'));
  git('init', '-q', '-b', 'main');
  cpSync(path.join(FIXTURES, 'e2e', 'spec'), path.join(repo, 'spec'), { recursive: true });
  commitAll('contract 1.0.0');
});
afterEach(() => rmSync(repo, { recursive: true, force: true }));

describe('npm run diff (CLI)', () => {
  it('exits 0 with no changes', () => {
    const r = run('HEAD');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('No contract changes');
  });

  it('fails on a breaking change in a shared schema: one row, listing the operation and the event it reaches', () => {
    edit('spec/components/schemas/Card.yaml', 'enum: [active, frozen]', 'enum: [active, frozen, terminated]');
    const r = run('HEAD');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      'Breaking changes (1)\n' +
        '  ✗ status: enum value terminated added  [enum-value-added]\n' +
        '      in response 200 (application/json) of GET /cards/{code}\n' +
        '      in payload of event card.frozen\n',
    );
    expect(r.stdout).toContain('FAIL: 1 breaking change(s) without a major version bump');
  });

  it('passes the same change once info.version has a major bump, and drafts a changelog entry', () => {
    edit('spec/components/schemas/Card.yaml', / {2}balance:\n {4}type: number\n/, '');
    edit('spec/components/schemas/Card.yaml', 'required: [card_code, status, balance]', 'required: [card_code, status]');
    edit('spec/openapi.yaml', 'version: 1.0.0', 'version: 2.0.0');
    const r = run('HEAD', '--changelog');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('OK: 1 breaking change(s), allowed by the major version bump');
    expect(r.stdout).toMatch(/## \[2\.0\.0\] - \d{4}-\d{2}-\d{2}/);
    expect(r.stdout).toContain(
      '### Removed\n\n- **Breaking:** balance: property removed (response 200 (application/json) of `GET /cards/{code}`; payload of event `card.frozen`)\n',
    );
  });

  it('reports a property renamed with the same schema as one likely rename, not a removal and an addition', () => {
    edit('spec/components/schemas/Card.yaml', '  balance:\n', '  available_balance:\n');
    edit('spec/components/schemas/Card.yaml', 'required: [card_code, status, balance]', 'required: [card_code, status, available_balance]');
    const json = JSON.parse(run('HEAD', '--format', 'json').stdout);
    // The rules still see two changes in each place; the reviewer reads one.
    expect(json.changes).toHaveLength(4);
    expect(json.groups).toEqual([
      {
        severity: 'breaking',
        rule: 'property-removed + property-added-required',
        message: 'balance → available_balance: likely renamed (balance removed, available_balance added with the same schema, required)',
        reaches: [
          { location: 'GET /cards/{code}', where: 'response 200 (application/json)', path: 'balance' },
          { location: 'event card.frozen', where: 'payload', path: 'data.balance' },
        ],
        rename: { from: 'balance', to: 'available_balance' },
      },
    ]);
    expect(json.summary).toEqual({ breaking: 1, 'non-breaking': 0, docs: 0 });
  });

  it('keeps a removal and an addition of different shapes apart', () => {
    edit('spec/components/schemas/Card.yaml', '  balance:\n    type: number\n', '  nickname:\n    type: string\n');
    const r = run('HEAD');
    expect(r.stdout).toMatch(/✗ balance: property removed {2}\[property-removed\]/);
    expect(r.stdout).toMatch(/\+ nickname: optional property added {2}\[property-added-optional\]/);
    expect(r.stdout).not.toContain('likely renamed');
  });

  it('reports additive changes as non-breaking, in JSON and markdown', () => {
    edit('spec/components/schemas/Card.yaml', 'properties:\n', 'properties:\n  nickname:\n    type: string\n');
    const json = run('HEAD', '--format', 'json');
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(report.summary).toEqual({ breaking: 0, 'non-breaking': 1, docs: 0 });
    expect(report.required).toBe('minor');
    expect(report.changes.map((c: { rule: string; location: string }) => `${c.rule} ${c.location}`).sort()).toEqual([
      'property-added-optional GET /cards/{code}',
      'property-added-optional event card.frozen',
    ]);
    const md = run('HEAD', '--format', 'markdown');
    expect(md.code).toBe(0);
    expect(md.stdout).toContain('## Contract diff');
    expect(md.stdout).toContain(':white_check_mark: **No breaking change.');
    expect(md.stdout).toContain(
      '<details><summary>Non-breaking changes (1)</summary>\n\n' +
        '| change | reaches | rule |\n|---|---|---|\n' +
        '| nickname: optional property added | response 200 (application/json) of `GET /cards/{code}`<br>payload of event `card.frozen` | `property-added-optional` |\n',
    );
    const cl = run('HEAD', '--format', 'changelog');
    expect(cl.stdout).toMatch(
      /^## \[1\.1\.0\] - .*\n\n### Added\n\n- nickname: optional property added \(response 200 \(application\/json\) of `GET \/cards\/\{code\}`; payload of event `card\.frozen`\)\n/,
    );
  });

  it('compares with the merge base of main by default', () => {
    git('checkout', '-q', '-b', 'feature');
    edit(
      'spec/paths/cards_{code}.yaml',
      / {4}- name: code/,
      '    - name: expand\n      in: query\n      required: true\n      schema:\n        type: string\n    - name: code',
    );
    commitAll('require expand');
    // HEAD itself has the change: only the merge base with main shows it.
    expect(run('HEAD').code).toBe(0);
    const r = run();
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('parameter-added-required');
  });

  it('gives a readable error when the base ref has no spec', () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'diff-e2e-'));
    try {
      const prev = repo;
      repo = empty;
      git('init', '-q', '-b', 'main');
      writeFileSync(path.join(repo, 'README.md'), 'first\n');
      commitAll('first commit, no contract yet');
      cpSync(path.join(FIXTURES, 'e2e', 'spec'), path.join(repo, 'spec'), { recursive: true });
      const r = run('HEAD');
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^contract diff: The base ref HEAD \([0-9a-f]{7}\) has no spec\/openapi\.yaml/);
      repo = prev;
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('rejects an unknown ref and an unknown format', () => {
    const ref = run('no-such-ref');
    expect(ref.code).toBe(2);
    expect(ref.stderr).toBe('contract diff: Unknown git ref: no-such-ref\n');
    const r = run('HEAD', '--format', 'xml');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^contract diff: unknown --format xml \(expected text, markdown, json, changelog\)\nUsage: /);
  });
});
