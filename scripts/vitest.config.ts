import { defineProject } from 'vitest/config';

// Operations checks: compose file and Dockerfiles against the services, the infra probe, the test summary line.
export default defineProject({ test: { name: 'ops', environment: 'node', include: ['**/*.test.ts'] } });
