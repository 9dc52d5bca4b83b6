// Own config for the conformance suite's tests (`npm run test:conformance`): the default vitest run
// excludes tests/conformance/** because these tests start servers and run Dredd (about a minute).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/conformance/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 60_000,
  },
});
