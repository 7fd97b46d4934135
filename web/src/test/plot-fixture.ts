import type { Plot } from '@pixel-atlas/contracts/plots';

/** One visible Featured plot as GET /api/plots/:id answers it, for screen tests. */
export const ADA_PLOT_ID = '5f1d2c3b-4a59-4e8f-8d7c-6b5a49382716';
export const adaPlot: Plot = {
  id: ADA_PLOT_ID,
  zone: 'creator',
  tier: 'featured',
  x: 12,
  y: 34,
  display_name: 'Ada Pixel',
  message: 'Pixel art every day',
  link: 'https://ada.example/',
  avatar_url: `/api/plots/${ADA_PLOT_ID}/avatar`,
  created_at: '2026-11-22T10:00:00.000Z',
  flagged: false,
  reviewed: true,
  region_name: 'Creator Coast',
};

/** A visible plot of 'Ada Pixel' with what a test is about (where it stands, its tier…) set by `overrides`. */
export function plotWith(overrides: Partial<Plot>): Plot {
  return {
    id: '11111111-1111-4111-8111-111111111111',
    zone: 'creator',
    tier: 'basic',
    x: 0,
    y: 0,
    display_name: 'Ada Pixel',
    message: 'Tiny worlds',
    link: null,
    avatar_url: '/api/plots/11111111-1111-4111-8111-111111111111/avatar',
    created_at: '2026-11-20T10:00:00.000Z',
    flagged: false,
    reviewed: true,
    ...overrides,
  };
}
