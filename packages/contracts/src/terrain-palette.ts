/**
 * The map's terrain colours: region tints, sea and sand, border ink. Shared by the web's map engine and the
 * gateway's share-card renderer, so a share card looks like the map (ARCHITECTURE.md section 8). Plain data, no zod.
 */
export type Rgb = readonly [number, number, number];

/** Each region's own tint, so borders read at a glance (ARCHITECTURE.md section 8). */
export interface RegionPalette {
  grass: Rgb;
  grassDark: Rgb;
  forest: Rgb;
  forestLight: Rgb;
  hill: Rgb;
  hillShade: Rgb;
  accent: Rgb;
  /** Share of interior tiles that become forest / hills (0..1). */
  forestShare: number;
  hillShare: number;
  landmark: LandmarkStyle;
}

export type LandmarkStyle = 'tower' | 'library' | 'tent' | 'obelisk' | 'crystal' | 'windmill' | 'lighthouse' | 'shrine' | 'forge';

function palette(
  grass: Rgb,
  forest: Rgb,
  hill: Rgb,
  accent: Rgb,
  forestShare: number,
  hillShare: number,
  landmark: LandmarkStyle,
): RegionPalette {
  return {
    grass,
    grassDark: shade(grass, -0.18),
    forest,
    forestLight: shade(forest, 0.25),
    hill,
    hillShade: shade(hill, -0.3),
    accent,
    forestShare,
    hillShare,
    landmark,
  };
}

export function shade([r, g, b]: Rgb, amount: number): Rgb {
  const apply = (channel: number) => Math.round(amount >= 0 ? channel + (255 - channel) * amount : channel * (1 + amount));
  return [apply(r), apply(g), apply(b)];
}

/** Indexed by region value (1..13); index 0 is unused (water). */
export const REGION_PALETTES: readonly RegionPalette[] = [
  palette([0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], 0, 0, 'tower'),
  /* 1 Knowledge Knolls */ palette([112, 168, 84], [52, 112, 60], [150, 170, 96], [236, 224, 140], 0.2, 0.35, 'library'),
  /* 2 Wellness Wilds */ palette([84, 150, 72], [34, 96, 52], [110, 150, 90], [250, 240, 250], 0.5, 0.08, 'shrine'),
  /* 3 Creator Coast */ palette([156, 178, 82], [74, 122, 58], [178, 172, 100], [255, 120, 90], 0.15, 0.12, 'lighthouse'),
  /* 4 Tech Creator Core */ palette([96, 150, 138], [48, 100, 96], [124, 140, 150], [120, 220, 255], 0.15, 0.2, 'tower'),
  /* 5 Startup Steppes */ palette([190, 178, 98], [116, 126, 64], [180, 150, 94], [250, 130, 60], 0.06, 0.2, 'tent'),
  /* 6 Maker Moorlands */ palette([138, 128, 96], [78, 92, 62], [128, 108, 96], [255, 170, 60], 0.12, 0.45, 'forge'),
  /* 7 Vibe Coding Vale */ palette([86, 176, 146], [40, 118, 104], [110, 160, 150], [240, 120, 230], 0.28, 0.1, 'crystal'),
  /* 8 Pixel Plains */ palette([150, 198, 86], [72, 138, 60], [170, 190, 100], [255, 220, 60], 0.08, 0.1, 'obelisk'),
  /* 9 Edu Archipelago */ palette([122, 188, 108], [56, 128, 76], [150, 180, 120], [255, 255, 255], 0.22, 0.12, 'library'),
  /* 10 Aesthetic Alley */ palette([184, 152, 168], [120, 96, 128], [196, 160, 150], [255, 200, 230], 0.18, 0.1, 'shrine'),
  /* 11 Forum Fields */ palette([118, 184, 92], [60, 126, 62], [140, 170, 100], [250, 250, 160], 0.12, 0.12, 'windmill'),
  /* 12 Influencer Isles */ palette([168, 198, 134], [74, 150, 96], [190, 190, 140], [255, 110, 180], 0.25, 0.05, 'lighthouse'),
  /* 13 Explorer Expanse */ palette([188, 158, 100], [96, 116, 70], [170, 120, 84], [240, 240, 220], 0.1, 0.45, 'obelisk'),
];

// An unknown region value draws as the first real region rather than as the sea's placeholder.
const UNKNOWN_REGION_PALETTE = REGION_PALETTES[1]!;

export function regionPalette(regionValue: number): RegionPalette {
  return REGION_PALETTES[regionValue] ?? UNKNOWN_REGION_PALETTE;
}

export const SEA = {
  deep: [26, 64, 128] as Rgb,
  water: [40, 96, 168] as Rgb,
  shallows: [70, 140, 196] as Rgb,
  wave: [120, 180, 230] as Rgb,
  foam: [226, 240, 250] as Rgb,
  sand: [228, 206, 142] as Rgb,
  sandDark: [200, 176, 112] as Rgb,
  /** Drawn around the world so zooming out never shows a blank page. */
  abyss: '#142c5c',
};

export const BORDER_INK: Rgb = [40, 34, 28];
