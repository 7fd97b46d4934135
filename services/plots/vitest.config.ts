import { defineProject } from 'vitest/config';

export default defineProject({ test: { name: 'plots', environment: 'node', testTimeout: 120_000, hookTimeout: 120_000 } });
