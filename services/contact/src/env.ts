import { baseEnvShape, envLoader } from '@pixel-atlas/service-kit/env';
import { z } from 'zod';

export const envSchema = z.object({
  ...baseEnvShape,
  PORT: z.coerce.number().int().min(0).max(65535).default(3005),
  /** Messages one client may send per window (the spec sets no limit; this stops floods). */
  CONTACT_RATE_LIMIT_MAX: z.coerce.number().int().positive().default(5),
  CONTACT_RATE_LIMIT_WINDOW_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(10 * 60 * 1000),
});
export type ContactEnv = z.infer<typeof envSchema>;

export const loadEnv = envLoader(envSchema);
