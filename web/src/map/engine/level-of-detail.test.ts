import { describe, expect, it } from 'vitest';
import { chooseLevelOfDetail, shouldShowAvatar, shouldShowInitials } from './level-of-detail.ts';

describe('level of detail', () => {
  it('uses the overview bitmap far out, chunks in the middle and full detail up close', () => {
    expect(chooseLevelOfDetail(0.05)).toBe('far');
    expect(chooseLevelOfDetail(0.2)).toBe('far');
    expect(chooseLevelOfDetail(0.3)).toBe('mid');
    expect(chooseLevelOfDetail(0.45)).toBe('mid');
    expect(chooseLevelOfDetail(1.2)).toBe('near');
    expect(chooseLevelOfDetail(8)).toBe('near');
  });

  it('loads avatars only when a plot is big enough on screen to show one', () => {
    expect(shouldShowAvatar(0.45, 1)).toBe(true);
    expect(shouldShowAvatar(0.3, 1)).toBe(false);
    expect(shouldShowAvatar(0.45, 4)).toBe(true);
    expect(shouldShowAvatar(1.2, 1)).toBe(true);
    expect(shouldShowAvatar(0.1, 4)).toBe(false);
  });

  it('writes initials only where they are legible', () => {
    expect(shouldShowInitials(0.3, 1)).toBe(false);
    expect(shouldShowInitials(0.45, 1)).toBe(true);
    expect(shouldShowInitials(0.15, 4)).toBe(false);
  });
});
