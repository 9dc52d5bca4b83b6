// `npm run test:journeys`: a user's paths, run as the user runs them. The global set-up makes one clean clone of
// this repository's HEAD (git clone, npm ci) and packs the package from it; each journey then starts from that
// clone, from a clone of its own, or from the tarball in an empty folder, and runs the commands exactly as the
// README or a guide prints them. The files run one at a time: each one starts servers and installs packages, and
// several at once on a 2-core machine only makes each slower and less steady.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/journeys/**/*.test.ts'],
    globalSetup: ['tests/journeys/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 600_000,
    hookTimeout: 600_000,
  },
});
