// Own config for the browser test (`npm run test:browser`): the default vitest run excludes tests/browser/**
// because it needs Debian's chromium and a built docs site (npm run docs).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/browser/**/*.test.ts'],
    // One Chromium at a time: each file drives its own, and the machine's cores are shared.
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 60_000,
  },
});
