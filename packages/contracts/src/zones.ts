import { z } from 'zod';

/** The plot's `zone` field (spec section 3), chosen by the buyer; distinct from the 13 map regions. */
export const ZONES = ['nexus', 'startup', 'creator', 'meme'] as const;
export type Zone = (typeof ZONES)[number];
export const zoneSchema = z.enum(ZONES).meta({ id: 'Zone' });
export const DEFAULT_ZONE: Zone = 'nexus';

export const ZONE_NAMES: Record<Zone, string> = {
  nexus: 'Central Nexus',
  startup: 'Startup Steppes',
  creator: 'Creator Coast',
  meme: 'Meme Marshlands',
};

/** Any other value is shown capitalised (spec section 3). */
export function zoneName(value: string): string {
  if ((ZONES as readonly string[]).includes(value)) return ZONE_NAMES[value as Zone];
  return value.charAt(0).toUpperCase() + value.slice(1);
}
