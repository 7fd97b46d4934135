import { defineProject } from 'vitest/config';

export default defineProject({ test: { name: 'api-types', environment: 'node', testTimeout: 30_000 } });
