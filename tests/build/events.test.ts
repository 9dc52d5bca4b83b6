// One event, one file: spec/events/<name>.yaml and a line of spec/events/index.yaml. The build writes
// what each document lists per event into the place the hand-written documents leave for it (`{}`), keeping
// every hand-written line at its number, and reports a mistake in the events in one line naming the file.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assembleSpec, assembleWorkspace, rebase } from '../../scripts/build/assemble.ts';
import { EventsError } from '../../scripts/build/spec-events.ts';
import { SourceMap } from '../../scripts/build/source-location.ts';
import { ROOT } from '../../scripts/lib/paths.ts';
import { copyWorkspace, edit } from '../contract/helpers.ts';

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
});
const temp = (dir: string) => {
  temps.push(dir);
  return dir;
};
const lines = (file: string) => fs.readFileSync(file, 'utf8').split('\n');
const lineOf = (file: string, text: string) => lines(file).findIndex((l) => l.includes(text)) + 1;

/** Assembles a broken copy of spec/ and returns the problems it reports. */
function problemsOf(change: (ws: string) => void): string[] {
  const ws = temp(copyWorkspace());
  change(ws);
  try {
    assembleSpec(path.join(ws, 'spec'), path.join(temp(fs.mkdtempSync(path.join(os.tmpdir(), 'assembled-'))), 'spec'));
  } catch (error) {
    if (error instanceof EventsError) return error.problems;
    throw error;
  }
  throw new Error('the broken spec was assembled without a problem');
}

describe('the assembled documents', () => {
  const assembled = temp(assembleWorkspace(ROOT));

  it.each(['openapi.yaml', 'asyncapi.yaml'])('%s: every hand-written line keeps its number; only the `{}` lines are written', (file) => {
    const source = lines(path.join(ROOT, 'spec', file));
    const written = lines(path.join(assembled, 'spec', file));
    expect(written).toHaveLength(source.length);
    const changed = source.flatMap((line, i) => (line === written[i] ? [] : [line]));
    expect(changed.length).toBeGreaterThan(0);
    for (const line of changed) expect(line).toMatch(/^\s*[a-z]+: \{\} # /);
  });

  it('problems map to spec/ lines: a hand-written node to its own, a written list to its `{}` line', () => {
    const sources = new SourceMap(assembled);
    const asyncapi = path.join(ROOT, 'spec', 'asyncapi.yaml');
    expect(sources.locate('spec/asyncapi.yaml', '#/components/tags/cardEvents/description')).toEqual({
      file: 'spec/asyncapi.yaml',
      line: lineOf(asyncapi, 'description: Events of the card lifecycle'),
    });
    expect(sources.locate('spec/asyncapi.yaml', '#/operations/sendCardFrozen/action')).toEqual({
      file: 'spec/asyncapi.yaml',
      line: lineOf(asyncapi, 'operations: {}'),
    });
    expect(sources.locate('spec/openapi.yaml', '#/webhooks/card.frozen/post/requestBody/content/application~1json/schema/allOf/0')).toEqual(
      {
        file: 'spec/events/card.frozen.yaml',
        line: lineOf(path.join(ROOT, 'spec/events/card.frozen.yaml'), '- $ref: ./EventEnvelope.yaml'),
      },
    );
  });

  it('the template $refs are rebased from spec/events/ to the documents in spec/', () => {
    expect(
      rebase(
        {
          a: { $ref: './DeliveryHeaders.yaml#/properties/X' },
          b: [{ $ref: '../components/responses/R.yaml' }],
          c: { $ref: '#/components/tags/t' },
        },
        'events',
        '.',
      ),
    ).toEqual({
      a: { $ref: './events/DeliveryHeaders.yaml#/properties/X' },
      b: [{ $ref: './components/responses/R.yaml' }],
      c: { $ref: '#/components/tags/t' },
    });
  });
});

describe('a mistake in the events is one line naming the file', () => {
  it('an event file that the index does not list', () => {
    const problems = problemsOf((ws) => edit(ws, 'spec/events/index.yaml', (t) => t.replace(/\n {2}card\.frozen: .*/, '')));
    expect(problems).toEqual([
      'spec/events/card.frozen.yaml: not listed in spec/events/index.yaml (add a line `card.frozen: <summary>` under its category)',
    ]);
  });

  it('an index line without its event file', () => {
    const problems = problemsOf((ws) => fs.rmSync(path.join(ws, 'spec/events/card.frozen.yaml')));
    expect(problems).toEqual(['spec/events/index.yaml: card.frozen: spec/events/card.frozen.yaml does not exist']);
  });

  it('an event without a summary, and an event file without an example of its type', () => {
    const problems = problemsOf((ws) => {
      edit(ws, 'spec/events/index.yaml', (t) => t.replace('card.unfrozen: Card unfrozen.', 'card.unfrozen:'));
      edit(ws, 'spec/events/card.frozen.yaml', (t) =>
        t.replace('    type: card.frozen\n    created_at', '    type: card.unfrozen\n    created_at'),
      );
    });
    expect(problems).toEqual([
      'spec/events/card.frozen.yaml: needs an example whose type is card.frozen',
      'spec/events/index.yaml: card.unfrozen: needs a one-line summary',
    ]);
  });

  it('a category that is not a tag of the documents', () => {
    const problems = problemsOf((ws) =>
      edit(ws, 'spec/events/index.yaml', (t) => t.replace('\nPOA events:', '\nProof of address events:')),
    );
    expect(problems).toEqual([
      'spec/events/index.yaml: Proof of address events: not a tag of spec/openapi.yaml (declare it in `tags`)',
      'spec/events/index.yaml: Proof of address events: not a tag of spec/asyncapi.yaml (declare it in `components.tags`)',
    ]);
  });

  it('a webhook written by hand in spec/openapi.yaml', () => {
    const problems = problemsOf((ws) =>
      edit(ws, 'spec/openapi.yaml', (t) =>
        t.replace(/^webhooks: \{\}.*$/m, 'webhooks:\n  card.frozen:\n    $ref: ./webhooks/card.frozen.yaml'),
      ),
    );
    expect(problems).toEqual(['spec/openapi.yaml: webhooks must be `{}`: npm run build lists every event of spec/events/index.yaml there']);
  });

  it('event names written by hand into the schema the build lists them in', () => {
    const problems = problemsOf((ws) =>
      fs.appendFileSync(path.join(ws, 'spec/components/schemas/WebhookEventNameChoice.yaml'), 'enum: [card.frozen]\n'),
    );
    expect(problems).toEqual([
      'spec/components/schemas/WebhookEventNameChoice.yaml: remove `enum`: npm run build writes it from spec/events/index.yaml',
    ]);
  });

  it('an AsyncAPI info that no longer names the example secret', () => {
    const problems = problemsOf((ws) =>
      edit(ws, 'spec/asyncapi.yaml', (t) => t.replace(/`whsec_example_[0-9a-f]+`/, 'the example secret')),
    );
    expect(problems).toEqual([
      'spec/asyncapi.yaml: info.description must name the example secret (`whsec_example_...`) that the example deliveries are signed with',
    ]);
  });
});
