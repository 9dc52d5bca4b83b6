// Own config for the conformance suite's tests (`npm run test:conformance`): the default vitest run
// excludes tests/conformance/** because these tests start servers and run Dredd (about a minute).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/conformance/**/*.test.ts'],
    // Each Dredd run takes 25 s of CPU and up to five run at once: on 2 cores shared with other work one took
    // 138 s, and under a load average of 20 several passed 180 s.
    testTimeout: 300_000,
    hookTimeout: 60_000,
  },
});
