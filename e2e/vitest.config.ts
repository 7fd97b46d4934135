import { defineProject } from 'vitest/config';

// Browser tests drive the real site in Debian's chromium; each file starts its own stack.
export default defineProject({
  test: {
    name: 'e2e',
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    // The site does real work (map generation, payments): give polled conditions time, not a fixed sleep.
    expect: { poll: { timeout: 10_000, interval: 100 } },
  },
});
