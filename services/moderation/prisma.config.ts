import path from 'node:path';
import { defineConfig } from 'prisma/config';

// The native schema engine cannot be downloaded here; this stub makes `prisma generate` skip it.
// Migrations are applied by @pixel-atlas/service-kit at start.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.resolve(import.meta.dirname, '../../scripts/no-schema-engine.cjs');
process.env.CHECKPOINT_DISABLE ??= '1';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
