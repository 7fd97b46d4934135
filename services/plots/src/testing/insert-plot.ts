import { randomUUID } from 'node:crypto';
import type { TestDatabase } from '@pixel-atlas/service-kit/testing';

export interface InsertedPlot {
  id: string;
  x: number;
  y: number;
  size: number;
}

/**
 * A plot row written straight into the table (no checkout, no footprint, no avatar): for tests of the public reads,
 * which need many plots at chosen places and in chosen states quickly. `visible: false` is a plot under review;
 * `removed: true` one moderation rejected.
 */
export async function insertPlot(
  db: TestDatabase,
  plot: {
    x: number;
    y: number;
    size?: number;
    regionName?: string | null;
    displayName?: string;
    visible?: boolean;
    removed?: boolean;
    createdAt?: Date;
    contentUpdatedAt?: Date | null;
  },
): Promise<InsertedPlot> {
  const id = randomUUID();
  const size = plot.size ?? 1;
  await db.query(
    `INSERT INTO plots.plots (id, zone, tier, x, y, size, display_name, message, link, stripe_session_id, region_name,
                              visible, removed_at, created_at, content_updated_at)
     VALUES ($1, 'creator', 'basic', $2, $3, $4, $5, 'Hello', 'https://example.com/', $6, $7, $8,
             CASE WHEN $9 THEN now() END, $10, $11)`,
    [
      id,
      plot.x,
      plot.y,
      size,
      plot.displayName ?? `Plot ${plot.x},${plot.y}`,
      `cs_test_${id}`,
      plot.regionName ?? null,
      plot.visible ?? true,
      plot.removed ?? false,
      plot.createdAt ?? new Date(),
      plot.contentUpdatedAt ?? null,
    ],
  );
  return { id, x: plot.x, y: plot.y, size };
}
