import { defineProject } from 'vitest/config';

// Browser tests drive the real site in Debian's chromium; each file starts its own stack.
export default defineProject({
  test: { name: 'e2e', environment: 'node', testTimeout: 60_000, hookTimeout: 120_000, fileParallelism: false },
});
