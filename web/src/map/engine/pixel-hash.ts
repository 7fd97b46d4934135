/** Deterministic integer hashing and value noise: the terrain looks the same on every visit and device. */

export function hash2(x: number, y: number, salt = 0): number {
  let h = Math.imul(x | 0, 0x27d4eb2d) ^ Math.imul(y | 0, 0x165667b1) ^ Math.imul(salt | 0, 0x9e3779b9);
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Uniform 0..1 from a tile (or pixel) coordinate. */
export function random2(x: number, y: number, salt = 0): number {
  return hash2(x, y, salt) / 0x100000000;
}

/** Smooth value noise in 0..1 with features about `scale` cells wide. */
export function valueNoise(x: number, y: number, scale: number, salt: number): number {
  const fx = x / scale;
  const fy = y / scale;
  const ix = Math.floor(fx);
  const iy = Math.floor(fy);
  const tx = fx - ix;
  const ty = fy - iy;
  const sx = tx * tx * (3 - 2 * tx);
  const sy = ty * ty * (3 - 2 * ty);
  const a = random2(ix, iy, salt);
  const b = random2(ix + 1, iy, salt);
  const c = random2(ix, iy + 1, salt);
  const d = random2(ix + 1, iy + 1, salt);
  return a + (b - a) * sx + (c - a) * sy + (a - b - c + d) * sx * sy;
}
