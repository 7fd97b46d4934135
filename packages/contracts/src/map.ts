import { z } from 'zod';
import { regionSchema } from './regions.ts';

export const mapTileSchema = z
  .object({
    x: z.number().int(),
    y: z.number().int(),
    zone_value: z.number().int(),
    zone_name: z.string(),
    is_land: z.boolean(),
  })
  .meta({ id: 'MapTile' });
export type MapTile = z.infer<typeof mapTileSchema>;

export const mapLayoutResponseSchema = z
  .object({
    tiles: z.array(mapTileSchema),
    regions: z.array(regionSchema),
    seed: z.string(),
    generatedAt: z.string(),
  })
  .meta({ id: 'MapLayout' });
export type MapLayout = z.infer<typeof mapLayoutResponseSchema>;

export const generateMapResponseSchema = z
  .object({ message: z.string(), tileCount: z.number().int(), landTileCount: z.number().int(), seed: z.string() })
  .meta({ id: 'GenerateMapResponse' });

export const clearMapResponseSchema = z.object({ message: z.string() }).meta({ id: 'ClearMapResponse' });

export const MAP_GENERATED_MESSAGE = 'Map generated successfully! The atlas is now ready for use.';
