import { defineProject } from 'vitest/config';

// Fault injection: each file starts its own nats-server (and, where it stops the database, its own
// PostgreSQL cluster), runs every service as a real process behind the gateway, breaks something, and
// checks in SQL that nothing was lost or applied twice. Every file starts at once, so the long outages
// (long-*.test.ts: minutes of mostly waiting each) overlap one another and the short files; the short files
// load both cores and time their faults in seconds, so they take support/serial.ts's lock: one at a time.
export default defineProject({
  test: {
    name: 'faults',
    environment: 'node',
    include: ['**/*.test.ts'],
    testTimeout: 180_000,
    // Stacks start one at a time (support/stack.ts), so a file may wait for the others' to boot first.
    hookTimeout: 600_000,
    fileParallelism: true,
    // At least one worker per file (the short ones mostly wait for the lock).
    maxWorkers: 16,
    // A group of its own (after the other projects' files): its worker count differs from theirs.
    sequence: { groupOrder: 1 },
  },
});
