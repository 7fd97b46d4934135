import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PlotHoverCard } from './PlotHoverCard.tsx';
import { RegionInfoCard } from './RegionInfoCard.tsx';
import { placeCard } from './viewport-clamp.ts';
import { creatorCoast as region } from '../../test/map-fixtures.ts';

const phone = { width: 390, height: 844 };
const laptop = { width: 1366, height: 768 };

describe('placeCard', () => {
  it('hangs the card below its anchor when it fits, shifted inside the side edges', () => {
    expect(placeCard({ x: 200, y: 100 }, { width: 288, height: 300 }, laptop, { alignX: -144, offset: 8 })).toEqual({ left: 56, top: 108 });
    expect(placeCard({ x: 1350, y: 100 }, { width: 288, height: 300 }, laptop, { alignX: -144, offset: 8 })).toEqual({
      left: 1070,
      top: 108,
    });
    expect(placeCard({ x: 20, y: 100 }, { width: 288, height: 300 }, phone, { alignX: -144, offset: 8 })).toEqual({ left: 8, top: 108 });
  });

  it('puts it above the anchor when there is no room below, and pins it to the edges when neither fits', () => {
    // A label near the bottom of a 768 px screen: the 330 px card goes above the label.
    expect(placeCard({ x: 700, y: 640 }, { width: 288, height: 330 }, laptop, { alignX: -144, offset: 8, above: 32 })).toEqual({
      left: 556,
      top: 278,
    });
    // Mid-screen on a short window, too tall both ways: as low as it stays whole.
    expect(
      placeCard({ x: 700, y: 200 }, { width: 288, height: 330 }, { width: 1366, height: 400 }, { alignX: -144, offset: 8, above: 32 }),
    ).toEqual({ left: 556, top: 62 });
    // Taller than the viewport: from the top edge, scrolling inside.
    expect(placeCard({ x: 700, y: 200 }, { width: 288, height: 500 }, { width: 1366, height: 400 }, { alignX: -144, offset: 8 })).toEqual({
      left: 556,
      top: 8,
      maxHeight: 384,
    });
  });
});

describe('map hover cards stay on screen', () => {
  afterEach(() => vi.unstubAllGlobals());

  function withCardSize(width: number, height: number) {
    vi.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockReturnValue(height);
    vi.spyOn(HTMLElement.prototype, 'offsetWidth', 'get').mockReturnValue(width);
  }

  it('opens the region card above a label near the bottom of the screen', () => {
    vi.stubGlobal('innerWidth', 1366);
    vi.stubGlobal('innerHeight', 768);
    withCardSize(288, 330);
    render(<RegionInfoCard region={region} anchor={{ x: 683, y: 700 }} onClose={() => {}} />);
    const card = screen.getByRole('heading', { name: 'Creator Coast' }).closest('section')!;
    expect(card.style.top).toBe(`${700 - 32 - 330}px`);
    expect(card.style.left).toBe(`${683 - 144}px`);
  });

  it('keeps the plot hover card inside the right and bottom edges', () => {
    vi.stubGlobal('innerWidth', 390);
    vi.stubGlobal('innerHeight', 844);
    withCardSize(260, 180);
    const plot = { id: 'p', x: 3, y: 4, tier: 'featured' as const, display_name: 'Ada', avatar_url: '', message: 'Hello there' };
    render(<PlotHoverCard plot={plot} anchor={{ x: 380, y: 830 }} />);
    const card = screen.getByRole('tooltip');
    expect(card.style.left).toBe(`${390 - 260 - 8}px`);
    expect(card.style.top).toBe(`${830 - 16 - 180}px`);
  });
});
