// The diff and the contract agree on the extensibility policy (docs/compatibility.md): on this contract, a
// new event type and a new error code under a status an operation already returns are additive (a minor
// version), as the compatibility guide promises partners.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSpecDir, type LoadedContract } from '../../scripts/diff/load.ts';
import { diffContracts } from '../../scripts/diff/report.ts';
import { ROOT } from '../../scripts/lib/paths.ts';
import { copyWorkspace, edit } from '../contract/helpers.ts';

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
});
let base: Promise<LoadedContract> | undefined;

/** The contract against a copy of it changed by `change`: the rules that fire, and the bump they require. */
async function diffAfter(change: (ws: string) => void) {
  const ws = copyWorkspace();
  temps.push(ws);
  change(ws);
  base ??= loadSpecDir(path.join(ROOT, 'spec'), 'base');
  const report = diffContracts(await base, await loadSpecDir(path.join(ws, 'spec'), 'head'));
  const rules = [...new Set(report.changes.map((c) => `${c.severity} ${c.rule}`))].sort();
  return { required: report.required, rules };
}

describe.concurrent('the extensibility policy, on this contract', { timeout: 120_000 }, () => {
  it('a new event type (its file and its line in the index) is additive', async () => {
    const result = await diffAfter((ws) => {
      const frozen = fs.readFileSync(path.join(ws, 'spec/events/card.frozen.yaml'), 'utf8');
      const paused = frozen
        .replaceAll('card.frozen', 'card.paused')
        .replace(/^title: card\.paused\n/, 'title: card.paused\nx-provisional: true\nx-provisional-note: Designed here.\n');
      fs.writeFileSync(
        path.join(ws, 'spec/events/card.paused.yaml'),
        paused.replace('description: Sent when', 'description: Provisional. Sent when'),
      );
      edit(ws, 'spec/events/index.yaml', (t) =>
        t.replace('  card.unfrozen: Card unfrozen.\n', '  card.unfrozen: Card unfrozen.\n  card.paused: Card paused.\n'),
      );
    });
    // The event in both documents; its name in the closed list requests take; an example of the open set responses report.
    expect(result).toEqual({
      required: 'minor',
      rules: ['docs docs-changed', 'non-breaking enum-value-added', 'non-breaking event-added'],
    });
  });

  it('a new error code under a status an operation already returns is additive', async () => {
    const result = await diffAfter((ws) => {
      const forbidden = fs.readFileSync(path.join(ws, 'spec/components/schemas/ForbiddenError.yaml'), 'utf8');
      fs.writeFileSync(path.join(ws, 'spec/components/schemas/KeyExpiredError.yaml'), forbidden.replaceAll('FORBIDDEN', 'KEY_EXPIRED'));
      edit(ws, 'spec/components/responses/ForbiddenRead.yaml', (t) =>
        t.replace(
          '        - $ref: ../schemas/ForbiddenError.yaml\n',
          '        - $ref: ../schemas/ForbiddenError.yaml\n        - $ref: ../schemas/KeyExpiredError.yaml\n',
        ),
      );
      edit(ws, 'spec/components/schemas/ErrorCode.yaml', (t) => `${t}  - KEY_EXPIRED\n`);
    });
    expect(result).toEqual({ required: 'minor', rules: ['docs docs-changed', 'non-breaking error-code-added'] });
  });
});
