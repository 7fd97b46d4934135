import { TIER_COLOR } from '@pixel-atlas/contracts/tier-catalog';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AVATAR_FRAME, NAME_BOX, PANEL, nameLayer, renderShareCard, type ShareCardInput } from './render-share-card.ts';

const tiles = Array.from({ length: 90 * 90 }, (_, i) => ({
  x: i % 90,
  y: Math.floor(i / 90),
  zone_value: 1 + (i % 13),
  is_land: i % 90 > 20,
}));
const input = (overrides: Partial<ShareCardInput> = {}): ShareCardInput => ({
  plot: { id: 'p1', display_name: `O'Brien & <Sons>`, tier: 'premium', x: 2, y: 86, region_name: null },
  avatarPng: null,
  neighbours: [{ id: 'p2', tier: 'basic', x: 6, y: 86 }],
  tiles,
  siteName: 'Pixel Atlas',
  siteHost: 'atlas.example.com',
  ...overrides,
});

async function pixel(png: Buffer, x: number, y: number) {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * info.channels;
  return [data[i], data[i + 1], data[i + 2]];
}

describe('renderShareCard', () => {
  it('draws the same bytes for the same plot, a plot at the edge of the world, text that looks like markup, no avatar', async () => {
    const [a, b] = await Promise.all([renderShareCard(input()), renderShareCard(input())]);
    expect(a.equals(b)).toBe(true);
    expect(await sharp(a).metadata()).toMatchObject({ format: 'png', width: 1200, height: 630 });
    expect(await pixel(a, AVATAR_FRAME.x + 3, AVATAR_FRAME.y + 3)).toEqual([0xef, 0x44, 0x44]);
    expect(TIER_COLOR.premium.hex).toBe('#ef4444');
  });

  it('still draws a card without a map (open sea) and changes when the plot does', async () => {
    const noMap = await renderShareCard(input({ tiles: null }));
    expect(await sharp(noMap).metadata()).toMatchObject({ width: 1200, height: 630 });
    const renamed = await renderShareCard(input({ tiles: null, plot: { ...input().plot, display_name: 'Someone Else' } }));
    expect(renamed.equals(noMap)).toBe(false);
  });

  it.each([
    ['30 Latin letters without a space', 'Supercalifragilisticexpialidoc'],
    ['30 wide capitals', 'W'.repeat(30)],
    ['30 CJK characters', '龍'.repeat(30)],
    ['emoji', '🦄'.repeat(15)],
    ['a short name', 'Ada'],
  ])('fits %s to the name box (measured, inside the panel)', async (_what, name) => {
    const layer = await nameLayer(name);
    expect(layer.width).toBeLessThanOrEqual(NAME_BOX.width);
    expect(layer.height).toBeLessThanOrEqual(NAME_BOX.height);
    expect(layer.left! + layer.width).toBeLessThanOrEqual(PANEL.x + PANEL.width);
    expect(layer.top).toBeGreaterThanOrEqual(NAME_BOX.y);
  });

  it('draws no letter of a long name outside the panel (on the original code it ran off the picture)', async () => {
    const whiteRightOfPanel = async (name: string) => {
      const png = await renderShareCard(input({ plot: { ...input().plot, display_name: name, x: 40, y: 40 } }));
      const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
      let count = 0;
      for (let y = NAME_BOX.y; y < NAME_BOX.y + NAME_BOX.height; y++)
        for (let x = PANEL.x + PANEL.width; x < info.width; x++) {
          const i = (y * info.width + x) * info.channels;
          if (data[i]! > 240 && data[i + 1]! > 240 && data[i + 2]! > 240) count++;
        }
      return count;
    };
    const background = await whiteRightOfPanel('Ad');
    expect(await whiteRightOfPanel('Supercalifragilisticexpialidoc')).toBe(background);
    expect(await whiteRightOfPanel('W'.repeat(30))).toBe(background);
  });
});
