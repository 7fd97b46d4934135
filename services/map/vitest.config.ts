import { defineProject } from 'vitest/config';

export default defineProject({ test: { name: 'map', environment: 'node', testTimeout: 30_000, hookTimeout: 60_000 } });
