import { z } from 'zod';
import { tierSchema } from './tiers.ts';

/** Where a plot stands and what it bought, as every view of a plot (public, admin, events) carries it. */
export const plotPlacementShape = {
  zone: z.string(),
  tier: tierSchema,
  x: z.number().int(),
  y: z.number().int(),
};
