import { defineConfig } from 'vitest/config';

// One run covers every workspace; each has its own vitest.config.ts (environment, timeouts).
export default defineConfig({
  test: {
    projects: [
      'packages/*/vitest.config.ts',
      'services/*/vitest.config.ts',
      'web/vitest.config.ts',
      'e2e/vitest.config.ts',
      'scripts/vitest.config.ts',
      'faults/vitest.config.ts',
    ],
  },
});
