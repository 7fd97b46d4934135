import { describe, expect, it } from 'vitest';
import { measureOccluders } from './use-map-occluders.ts';

function elementAt(left: number, top: number, width: number, height: number): Element {
  const element = document.createElement('div');
  element.getBoundingClientRect = () => DOMRect.fromRect({ x: left, y: top, width, height });
  return element;
}

describe('measureOccluders', () => {
  it('gives the chrome relative to the canvas, and leaves out what is not laid out', () => {
    // The canvas starts under a 114 px header and strip.
    const canvas = elementAt(0, 114, 390, 730);
    const regions = elementAt(12, 126, 97, 48);
    const hidden = elementAt(0, 0, 0, 0);
    expect(measureOccluders(canvas, [regions, hidden], { innerWidth: 390, innerHeight: 844 })).toEqual([
      { x: 12, y: 12, width: 97, height: 48 },
    ]);
  });

  it('counts the parts of the canvas scrolled out of the window as covered', () => {
    // Scrolled down 200 px: the top 86 px of the canvas are above the window.
    expect(measureOccluders(elementAt(0, -86, 390, 730), [], { innerWidth: 390, innerHeight: 844 })).toEqual([
      { x: 0, y: 0, width: 390, height: 86 },
    ]);
    // A window shorter than the canvas: its lower part is below the fold.
    expect(measureOccluders(elementAt(0, 100, 1366, 700), [], { innerWidth: 1366, innerHeight: 600 })).toEqual([
      { x: 0, y: 500, width: 1366, height: 200 },
    ]);
  });
});
