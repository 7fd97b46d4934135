import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startWorld, type World } from '@pixel-atlas/test-stack/world';
import { testServiceEnv } from '@pixel-atlas/service-kit/testing';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { loadEnv } from '../env.ts';

/** The app shell the gateway serves (index.html, app.html) in tests that need a page but not the built web app. */
export const TEST_SHELL = '<!doctype html><html><head><title>Pixel Atlas</title></head><body><div id="root"></div></body></html>';

export interface GatewayOverWorld {
  world: World;
  gateway: FastifyInstance;
  /** The gateway's own address (it listens on a free loopback port). */
  base: string;
  close(): Promise<void>;
}

/**
 * The real gateway, listening, in front of the real plots, payments, moderation and map services of a plots test
 * world (own database and stream); contact points nowhere. `web` are the files of its web folder.
 */
export async function startGatewayOverWorld(
  options: { env?: Record<string, string>; web?: Record<string, string> } = {},
): Promise<GatewayOverWorld> {
  const world = await startWorld({ listen: true });
  const webDir = await mkdtemp(path.join(os.tmpdir(), 'pa-gateway-'));
  for (const [name, text] of Object.entries(options.web ?? { 'index.html': TEST_SHELL })) await writeFile(path.join(webDir, name), text);
  const urlOf = (app: FastifyInstance) => `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const gateway = await buildApp(
    loadEnv({
      ...testServiceEnv(world.db, world.stream),
      ...options.env,
      PLOTS_URL: urlOf(world.plots),
      MODERATION_URL: urlOf(world.moderation!),
      PAYMENTS_URL: urlOf(world.payments),
      MAP_URL: urlOf(world.map!),
      CONTACT_URL: 'http://127.0.0.1:9',
      WEB_DIST_DIR: webDir,
    }),
  );
  await gateway.listen({ port: 0, host: '127.0.0.1' });
  return {
    world,
    gateway,
    base: urlOf(gateway),
    async close() {
      await gateway.close();
      await world.close();
      await rm(webDir, { recursive: true, force: true });
    },
  };
}
