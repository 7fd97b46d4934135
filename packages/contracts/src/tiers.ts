import { z } from 'zod';
import { TIERS } from './tier-catalog.ts';

// The constants live in ./tier-catalog.ts (no zod, for the web's first screen); this module adds the schema.
export * from './tier-catalog.ts';

export const tierSchema = z.enum(TIERS).meta({ id: 'Tier', description: 'Plot tier; decides the plot size and price' });
