#!/usr/bin/env node
// Stand-in for Prisma's native schema engine, which cannot be downloaded on offline machines.
// prisma.config.ts points PRISMA_SCHEMA_ENGINE_BINARY here so `prisma generate` skips the download.
// Migrations are applied by service-kit's own runner, never by the Prisma CLI.
console.error('native Prisma schema engine is not installed; migrations are applied by @pixel-atlas/service-kit at start');
process.exit(1);
