import { defineConfig } from 'vitest/config';
import { END_TO_END } from './tests/end-to-end.ts';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // Owned by other suites with their own runners and servers; the end-to-end files run in `npm run test:e2e`
    // (tests/end-to-end.ts lists them).
    exclude: ['tests/browser/**', 'tests/conformance/**', 'tests/journeys/**', 'node_modules/**', ...END_TO_END],
    // Builds spec/ once into a temporary directory for the contract tests (tests/contract/).
    globalSetup: ['tests/contract/global-setup.ts'],
    // A worker per core (vitest leaves one idle by default), and the files of a worker share its module cache:
    // each would otherwise load and compile the contract again. No file here stubs globals or mocks modules
    // (those that do are end-to-end files, which keep their isolation: vitest.e2e.config.ts).
    maxWorkers: '100%',
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // GitHub's workflow parser imports its JSON schema without `with { type: 'json' }`, which Node refuses:
    // through Vite's transform it loads (tests/ci/workflows.test.ts).
    server: { deps: { inline: ['@actions/workflow-parser'] } },
  },
});
