import { z } from 'zod';

export { REGION_DEFINITIONS, type RegionName } from './region-catalog.ts';
export const REGION_FOCUS_ZOOM = 1.2;
export const PLOT_FOCUS_ZOOM = 1.5;

export const regionSchema = z
  .object({
    value: z.number().int(),
    name: z.string(),
    focus: z.object({ x: z.number().int(), y: z.number().int() }),
    audience: z.string(),
    description: z.string(),
    notableLocations: z.array(z.string()).length(4),
  })
  .meta({ id: 'Region' });
export type Region = z.infer<typeof regionSchema>;

/** Payload of the browser event that moves the map to a region (spec section 2). */
export interface NavigateToRegionDetail {
  x: number;
  y: number;
  zoom: number;
  regionName: string;
}
export const NAVIGATE_TO_REGION_EVENT = 'navigateToRegion';
