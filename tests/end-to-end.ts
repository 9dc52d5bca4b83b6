// The end-to-end test files (`npm run test:e2e`, vitest.e2e.config.ts): tests that run the repository's commands
// or outside tools as processes (the build and lint on a copied workspace, the CLIs, Prism, npm pack and a
// consumer install, the sample checkers, git) or kill and restart a sandbox process. They take most of the
// suites' time, so `npm test` (vitest.config.ts) leaves them out and CI (.ci/run) runs both.
export const END_TO_END = [
  'tests/build/build.test.ts',
  'tests/build/validate.test.ts',
  'tests/ci/diff-comment.test.ts',
  'tests/cli/errors.test.ts',
  'tests/contract/broken-spec.test.ts',
  'tests/contract/lint.test.ts',
  'tests/diff/cli.test.ts',
  'tests/docs/code-sample-languages.test.ts',
  'tests/docs/code-samples.test.ts',
  'tests/mcp/bin.test.ts',
  'tests/mock/**/*.test.ts',
  'tests/package/pack.test.ts',
  'tests/sandbox/bin.test.ts',
  'tests/sandbox/bin-fixtures.test.ts',
  'tests/sandbox/crash.test.ts',
  'tests/sandbox/kyc-poa-restart.test.ts',
  'tests/trigger/trigger.test.ts',
];
