import { z } from 'zod';
import { PLOT_LIST_COMPACT_VERSION } from './plot-list-compact-codec.ts';
import { tierSchema } from './tiers.ts';

/**
 * `GET /api/plots?format=compact`: the same list as `GET /api/plots`, column by column. Keys are written once
 * instead of once per plot, times are numbers, and a column of alike values compresses far better than the
 * same values spread across objects: the whole grid (8,100 plots) goes from 3.4 MB of JSON to a fraction of
 * it on the wire. Decoding gives back exactly the spec's plots, in the same order.
 *
 * `version` changes whenever a column changes meaning; a reader refuses a version it does not know. Encoding and
 * decoding live in plot-list-compact-codec.ts, which imports no zod (the web's first paint reads the list).
 */

const column = <T extends z.ZodType>(item: T) => z.array(item);

export const plotListCompactSchema = z
  .object({
    version: z.literal(PLOT_LIST_COMPACT_VERSION),
    id: column(z.uuid().nullable()).describe(
      "null: the id is made from the plot's created_at, x and y (`plotIdFor` in contracts/plot-id.ts: a version 8 UUID `cccccccc-cccc-8xxx-8yyy-000000000000` of created_at in milliseconds as 12 hex digits, then x and y as 3 hex digits each)",
    ),
    zone: column(z.string()),
    tier: column(tierSchema),
    x: column(z.number().int()),
    y: column(z.number().int()),
    display_name: column(z.string()),
    message: column(z.string()),
    link: column(z.string().nullable()),
    avatar_url: column(z.string().nullable()).describe("null: the default `/api/plots/{id}/avatar`; otherwise the plot's avatar_url"),
    created_at: column(z.number().int()).describe(
      'milliseconds: the first since the Unix epoch, each next one as a difference from the one before',
    ),
    flagged: column(z.union([z.literal(0), z.literal(1)])),
    reviewed: column(z.union([z.literal(0), z.literal(1)])),
    region_name: column(z.string().nullable()),
    updated_at: column(z.number().int().nullable()).describe('milliseconds since the Unix epoch; null: as claimed'),
  })
  .meta({ id: 'PlotListCompact' });
