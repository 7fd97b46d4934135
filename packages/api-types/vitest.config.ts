import { defineProject } from 'vitest/config';

export default defineProject({ test: { name: 'api-types', environment: 'node', testTimeout: 120_000, hookTimeout: 60_000 } });
