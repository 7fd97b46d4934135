import { describe, expect, it } from 'vitest';
import { AVATAR_MAX_OUTPUT_PX, avatarOutputSide } from './avatar-image.ts';

describe('the saved avatar size', () => {
  it('keeps the crop at its own resolution up to 512 px (it was always 100), never below the spec 100 px', () => {
    expect(AVATAR_MAX_OUTPUT_PX).toBe(512);
    expect(avatarOutputSide(2000)).toBe(512);
    expect(avatarOutputSide(300.4)).toBe(300);
    expect(avatarOutputSide(48)).toBe(100);
  });
});
