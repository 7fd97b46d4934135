import alea from 'alea';
import { createNoise2D, type NoiseFunction2D } from 'simplex-noise';

/**
 * Every random source is derived from the layout seed plus a purpose label, and each gets a fresh
 * alea stream: adding or reordering one source never shifts the numbers another one sees, so a
 * layout stays byte-identical for a given seed.
 */
export function seededRandom(seed: string, purpose: string): () => number {
  return alea(`${seed}:${purpose}`);
}

export function seededNoise(seed: string, purpose: string): NoiseFunction2D {
  return createNoise2D(alea(`${seed}:${purpose}`));
}

/** Fractal (fBm) simplex noise normalised to roughly -1..1. */
export function fractalNoise(noise: NoiseFunction2D, x: number, y: number, octaves: number): number {
  let sum = 0;
  let amplitude = 1;
  let frequency = 1;
  let norm = 0;
  for (let octave = 0; octave < octaves; octave++) {
    sum += amplitude * noise(x * frequency, y * frequency);
    norm += amplitude;
    amplitude *= 0.5;
    frequency *= 2;
  }
  return sum / norm;
}

export function smoothstep(edge0: number, edge1: number, value: number): number {
  const t = Math.min(1, Math.max(0, (value - edge0) / (edge1 - edge0)));
  return t * t * (3 - 2 * t);
}
