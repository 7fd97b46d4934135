import { z } from 'zod';
import { GRID_SIZE } from './grid.ts';
import { tierSchema } from './tiers.ts';

export const createCheckoutSessionRequestSchema = z
  .object({
    tier: tierSchema,
    x: z.number().int().min(0).max(GRID_SIZE - 1),
    y: z.number().int().min(0).max(GRID_SIZE - 1),
  })
  .meta({ id: 'CreateCheckoutSessionRequest' });
export type CreateCheckoutSessionRequest = z.infer<typeof createCheckoutSessionRequestSchema>;

export const createCheckoutSessionResponseSchema = z
  .object({ url: z.string(), sessionId: z.string() })
  .meta({ id: 'CreateCheckoutSessionResponse' });

export const verifySessionResponseSchema = z
  .object({ verified: z.boolean(), tier: tierSchema, sessionId: z.string() })
  .meta({ id: 'VerifySessionResponse' });
export type VerifySessionResponse = z.infer<typeof verifySessionResponseSchema>;

/** How long a checkout session (and the footprint hold it carries) lives: Stripe's minimum expires_at. */
export const CHECKOUT_SESSION_LIFETIME_SECONDS = 30 * 60;
