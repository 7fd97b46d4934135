import type { Plot } from '@pixel-atlas/contracts/plots';
import type { MapPlot } from '../engine/plot-index.ts';

/** A plot as the map shell knows it: what the engine draws, plus the card's message and link when the API sends them. */
export type AtlasPlot = MapPlot & Partial<Pick<Plot, 'message' | 'link' | 'zone'>>;
