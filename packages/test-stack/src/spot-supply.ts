import { landSpots, type World } from './world.ts';

/**
 * Hands out a test file's land squares one at a time: fresh, non-overlapping, every cell of the `size`×`size` square land.
 * The squares are worked out on first use, since a world knows its land only once it has started.
 */
export function spotSupply(world: Pick<World, 'land'>, size: number, count: number): () => { x: number; y: number } {
  let spots: Array<{ x: number; y: number }> | undefined;
  let handedOut = 0;
  return () => {
    spots ??= landSpots(world, size, count);
    const spot = spots[handedOut];
    if (!spot) throw new Error(`all ${count} land spots of ${size}×${size} planned for this file are used: plan more`);
    handedOut += 1;
    return spot;
  };
}
