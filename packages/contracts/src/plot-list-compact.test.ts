import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import { plotIdFor } from './plot-id.ts';
import { decodePlotListCompact, encodePlotListCompact, type PlotListCompact } from './plot-list-compact-codec.ts';
import { plotListCompactSchema } from './plot-list-compact.ts';
import { plotListResponseSchema, type Plot } from './plots.ts';

const plot = (n: number, extra: Partial<Plot> = {}): Plot => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  zone: 'creator',
  tier: 'basic',
  x: n,
  y: 2 * n,
  display_name: `Creator ${n}`,
  message: `Plot ${n} says hello`,
  link: `https://creator-${n}.example.com`,
  avatar_url: `/api/plots/00000000-0000-4000-8000-${String(n).padStart(12, '0')}/avatar`,
  created_at: new Date(Date.UTC(2026, 10, 25, 10, 0, n, 123)).toISOString(),
  flagged: false,
  reviewed: false,
  region_name: 'Creator Coast',
  updated_at: null,
  ...extra,
});

describe('compact plot list', () => {
  it('decodes to exactly the plots it was made from, in order, and validates against its schema', () => {
    const plots = plotListResponseSchema.parse([
      plot(3),
      plot(1, { link: null, flagged: true, reviewed: true, region_name: null, tier: 'premium', zone: 'meme' }),
      plot(2, { avatar_url: '/api/plots/00000000-0000-4000-8000-000000000002/avatar?v=3', updated_at: '2026-11-25T11:00:00.000Z' }),
    ]);
    const compact = plotListCompactSchema.parse(JSON.parse(JSON.stringify(encodePlotListCompact(plots))));
    expect(compact.avatar_url).toEqual([null, null, '/api/plots/00000000-0000-4000-8000-000000000002/avatar?v=3']);
    expect(compact.created_at.slice(1)).toEqual([-2000, 1000]);
    expect(decodePlotListCompact(compact)).toEqual(plots);
    expect(decodePlotListCompact(encodePlotListCompact([]))).toEqual([]);
  });

  it("leaves out every id that is the plot's time and place (plotIdFor), and keeps the others", () => {
    const made = (n: number, x: number, y: number) => {
      const created_at = new Date(Date.UTC(2026, 10, 27, 9, 0, n, 250)).toISOString();
      return plot(n, {
        id: plotIdFor(Date.parse(created_at), x, y),
        x,
        y,
        created_at,
        avatar_url: `/api/plots/${plotIdFor(Date.parse(created_at), x, y)}/avatar`,
      });
    };
    const random = plot(7);
    // A plot at the same place later (the first was removed), and one whose id does not match its time: kept.
    const moved = { ...made(9, 4, 4), created_at: new Date(Date.UTC(2026, 10, 27, 9, 0, 10)).toISOString() };
    const plots = plotListResponseSchema.parse([made(1, 0, 0), random, made(3, 89, 89), made(4, 0, 0), moved]);
    const compact = plotListCompactSchema.parse(JSON.parse(JSON.stringify(encodePlotListCompact(plots))));
    expect(compact.id).toEqual([null, random.id, null, null, moved.id]);
    expect(compact.avatar_url).toEqual([null, null, null, null, null]);
    expect(decodePlotListCompact(compact)).toEqual(plots);
  });

  it('the schema (the OpenAPI document) and the codec describe the same columns', () => {
    expectTypeOf<z.infer<typeof plotListCompactSchema>>().toEqualTypeOf<PlotListCompact>();
  });

  it('refuses another version and columns of different lengths', () => {
    const compact = encodePlotListCompact([plot(1), plot(2)]);
    // Version 1 carried every id; its readers would take a null id for a missing one.
    for (const version of [1, 3]) {
      expect(plotListCompactSchema.safeParse({ ...compact, version }).success).toBe(false);
      expect(() => decodePlotListCompact({ ...compact, version } as unknown as PlotListCompact)).toThrow(`unknown version ${version}`);
    }
    expect(() => decodePlotListCompact({ ...compact, message: ['only one'] })).toThrow('column message has 1 values for 2 plots');
  });
});
