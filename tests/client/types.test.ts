// Runs tsc over tests/client/types.check.ts (the type-level tests: expectTypeOf and @ts-expect-error
// lines) and fails on any diagnostic. A deliberately wrong file is compiled alongside, to show the check
// can fail.
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support.js';

const CHECK = path.join(ROOT, 'tests/client/types.check.ts');
const WRONG = path.join(ROOT, 'tests/client/__virtual_wrong__.check.ts');
const WRONG_SOURCE = `
import { expectTypeOf } from 'vitest';
import type { OperationErrorCode, PageItem } from '../../src/index.js';
import { isPartnerApiError } from '../../src/index.js';
// Wrong on purpose: GET /cards lists cards, not payouts.
expectTypeOf<PageItem<'/cards'>>().toEqualTypeOf<PageItem<'/payouts'>>();
// Wrong on purpose: withdrawFromCard documents INSUFFICIENT_BALANCE.
expectTypeOf<'INSUFFICIENT_BALANCE'>().not.toExtend<OperationErrorCode<'withdrawFromCard'>>();
export function f(e: unknown) {
  // Wrong on purpose: the comparison is valid, so this directive is unused.
  // @ts-expect-error
  if (isPartnerApiError(e, 'GET', '/cards') && e.code === 'RESOURCE_NOT_FOUND') return;
}
`;

/** The repository's compiler options (tsconfig.json), so the check matches `npm run typecheck`. */
function repoOptions(): ts.CompilerOptions {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    path.join(ROOT, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new Error('tsconfig.json could not be read');
  return { ...parsed.options, noEmit: true };
}
const options = repoOptions();

function diagnostics() {
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (f) => f === WRONG || fileExists.call(host, f);
  host.readFile = (f) => (f === WRONG ? WRONG_SOURCE : readFile.call(host, f));
  host.getSourceFile = (f, lang, ...rest) =>
    f === WRONG ? ts.createSourceFile(f, WRONG_SOURCE, lang) : getSourceFile.call(host, f, lang, ...rest);
  const program = ts.createProgram([CHECK, WRONG], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => ({
    file: d.file?.fileName,
    line: d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0,
    text: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
  }));
}

describe('type-level tests', () => {
  const all = diagnostics();

  it('tests/client/types.check.ts type-checks (every expectation and @ts-expect-error holds)', () => {
    const mine = all.filter((d) => d.file !== WRONG).map((d) => `${d.file}:${d.line} ${d.text}`);
    expect(mine).toEqual([]);
  });

  it('a wrong expectation is reported (the check can fail)', () => {
    const lines = all.filter((d) => d.file === WRONG).map((d) => d.line);
    expect(lines).toEqual(expect.arrayContaining([6, 8, 11]));
  });
});
