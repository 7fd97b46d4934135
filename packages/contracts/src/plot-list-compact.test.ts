import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
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

  it('the schema (the OpenAPI document) and the codec describe the same columns', () => {
    expectTypeOf<z.infer<typeof plotListCompactSchema>>().toEqualTypeOf<PlotListCompact>();
  });

  it('refuses another version and columns of different lengths', () => {
    const compact = encodePlotListCompact([plot(1), plot(2)]);
    expect(plotListCompactSchema.safeParse({ ...compact, version: 2 }).success).toBe(false);
    expect(() => decodePlotListCompact({ ...compact, version: 2 } as unknown as PlotListCompact)).toThrow('unknown version 2');
    expect(() => decodePlotListCompact({ ...compact, message: ['only one'] })).toThrow('column message has 1 values for 2 plots');
  });
});
