import { defineProject } from 'vitest/config';

// Fault injection: each file starts its own nats-server (and, where it restarts the database, its own
// PostgreSQL cluster), runs every service as a real process behind the gateway, breaks something, and
// checks in SQL that nothing was lost or applied twice. One file at a time: they load both cores.
export default defineProject({
  test: {
    name: 'faults',
    environment: 'node',
    include: ['**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
});
