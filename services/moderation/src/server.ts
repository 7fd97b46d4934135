import { runServer } from '@pixel-atlas/service-kit/server';
import { buildApp } from './app.ts';
import { loadEnv } from './env.ts';

await runServer({ loadEnv, buildApp });
