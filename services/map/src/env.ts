import { SERVICES } from '@pixel-atlas/contracts/services';
import { baseEnvShape, envField, envLoader } from '@pixel-atlas/service-kit/env';
import { z } from 'zod';

export const envSchema = z.object({
  ...baseEnvShape,
  PORT: envField.port(SERVICES.map.port),
  /** Same seed, same world: change it to get a different map the next time one is generated. */
  MAP_SEED: z.string().min(1).default('pixel-atlas'),
  /** Generate a map at start when none exists, so a fresh install shows a world. */
  MAP_AUTOGENERATE: z.stringbool().default(true),
});
export type MapEnv = z.infer<typeof envSchema>;

export const loadEnv = envLoader(envSchema);
