import { SERVICES } from '@pixel-atlas/contracts/services';
import { baseEnvShape, envField, envLoader } from '@pixel-atlas/service-kit/env';
import { z } from 'zod';

export const envSchema = z.object({
  ...baseEnvShape,
  PORT: envField.port(SERVICES.contact.port),
  /** Messages one client may send per window (the spec sets no limit; this stops floods). */
  CONTACT_RATE_LIMIT_MAX: envField.positiveInt(5),
  CONTACT_RATE_LIMIT_WINDOW_MS: envField.positiveInt(10 * 60 * 1000),
});
export type ContactEnv = z.infer<typeof envSchema>;

export const loadEnv = envLoader(envSchema);
