import { z } from 'zod';

export {
  NAVIGATE_TO_REGION_EVENT,
  PLOT_FOCUS_ZOOM,
  REGION_DEFINITIONS,
  REGION_FOCUS_ZOOM,
  type NavigateToRegionDetail,
  type RegionName,
} from './region-catalog.ts';

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
