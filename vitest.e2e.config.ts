// `npm run test:e2e`: the end-to-end test files (tests/end-to-end.ts), with the settings of `npm test`.
import { defineConfig } from 'vitest/config';
import { END_TO_END } from './tests/end-to-end.ts';
import unit from './vitest.config.ts';

export default defineConfig({
  // Isolated: some of these files stub globals and environment variables.
  test: { ...unit.test, include: END_TO_END, exclude: ['node_modules/**'], isolate: true },
});
