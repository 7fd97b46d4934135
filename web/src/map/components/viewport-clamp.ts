import { useLayoutEffect, useState, type RefObject } from 'react';

const EDGE_GAP = 8;

export interface CardPlacement {
  left: number;
  top: number;
  /** Set when even the whole viewport height is too little: the card scrolls inside. */
  maxHeight?: number;
}

/**
 * Where a card of `size` goes next to `anchor` so it stays whole on screen: `below` the anchor by
 * `offset` when it fits, else above it, else pinned to the edges (scrolling inside when taller than
 * the viewport); horizontally starting at `anchor.x + alignX`, shifted back inside the edges.
 */
export function placeCard(
  anchor: { x: number; y: number },
  size: { width: number; height: number },
  viewport: { width: number; height: number },
  options: { alignX: number; offset: number; above?: number },
): CardPlacement {
  const left = Math.max(EDGE_GAP, Math.min(viewport.width - size.width - EDGE_GAP, anchor.x + options.alignX));
  const room = viewport.height - EDGE_GAP * 2;
  if (size.height > room) return { left, top: EDGE_GAP, maxHeight: room };
  const below = anchor.y + options.offset;
  if (below + size.height <= viewport.height - EDGE_GAP) return { left, top: below };
  const above = anchor.y - (options.above ?? options.offset) - size.height;
  if (above >= EDGE_GAP) return { left, top: above };
  return { left, top: Math.max(EDGE_GAP, viewport.height - EDGE_GAP - size.height) };
}

/**
 * Measures the card after it renders and places it with placeCard before the browser paints (a card
 * never shows half off-screen, even for a frame). Until measured it sits where a small card would.
 */
export function useViewportClamp(
  cardRef: RefObject<HTMLElement | null>,
  anchor: { x: number; y: number },
  options: { alignX: number; offset: number; above?: number; width: number },
  /** What the card shows (another plot, another region): a change measures it again. */
  content?: unknown,
): CardPlacement {
  const [placement, setPlacement] = useState<CardPlacement>(() =>
    placeCard(anchor, { width: options.width, height: 0 }, viewportSize(), options),
  );
  // Callers pass fresh objects every render: the card is measured again when a value changes, not an identity.
  const { x, y } = anchor;
  const { alignX, offset, above, width } = options;
  useLayoutEffect(() => {
    const element = cardRef.current;
    if (!element) return;
    const size = { width: element.offsetWidth || width, height: element.scrollHeight || element.offsetHeight };
    const next = placeCard({ x, y }, size, viewportSize(), { alignX, offset, above });
    setPlacement((current) =>
      current.left === next.left && current.top === next.top && current.maxHeight === next.maxHeight ? current : next,
    );
  }, [cardRef, x, y, alignX, offset, above, width, content]);
  return placement;
}

function viewportSize(): { width: number; height: number } {
  if (typeof window === 'undefined') return { width: 1024, height: 768 };
  return { width: window.innerWidth, height: window.innerHeight };
}
