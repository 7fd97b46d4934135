import { describe, expect, it } from 'vitest';
import { PIN_BOUNCE_MS, pinBounceOffset, pinRadius } from './map-pin.ts';

describe('map pin', () => {
  it('bounces up after selection and settles', () => {
    expect(pinBounceOffset(225, 10, false)).toBeLessThan(-5);
    expect(pinBounceOffset(PIN_BOUNCE_MS, 10, false)).toBe(0);
    expect(pinBounceOffset(PIN_BOUNCE_MS + 500, 10, false)).toBe(0);
  });

  it('stays still for people who prefer reduced motion', () => {
    expect(pinBounceOffset(225, 10, true)).toBe(0);
  });

  it('keeps a readable size at every zoom', () => {
    expect(pinRadius(2)).toBe(7);
    expect(pinRadius(48)).toBeCloseTo(15.36);
    expect(pinRadius(400)).toBe(20);
  });
});
