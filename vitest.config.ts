import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // Owned by other suites with their own runners and servers.
    exclude: ['tests/browser/**', 'tests/conformance/**', 'node_modules/**'],
    // Builds spec/ once into a temporary directory for the contract tests (tests/contract/).
    globalSetup: ['tests/contract/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // GitHub's workflow parser imports its JSON schema without `with { type: 'json' }`, which Node refuses:
    // through Vite's transform it loads (tests/ci/workflows.test.ts).
    server: { deps: { inline: ['@actions/workflow-parser'] } },
  },
});
