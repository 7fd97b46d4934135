import { useState } from 'react';
import { CLAIM_SECTION_ID } from '../../lib/tier-guidance.ts';

export const DESKTOP_HINT = 'Click and drag to explore • Scroll to zoom';

export function DesktopHint() {
  return (
    <p className="pointer-events-none absolute bottom-3 left-1/2 z-10 -translate-x-1/2 border-2 border-black bg-panel/90 px-3 py-2 text-xs whitespace-nowrap text-ink shadow-pixel-sm">
      {DESKTOP_HINT}
    </p>
  );
}

/** Dismissible guide shown on touch devices. */
export function TouchGuide() {
  const [open, setOpen] = useState(true);
  if (!open) return null;
  return (
    <section
      aria-labelledby="touch-guide-title"
      className="pointer-events-auto absolute bottom-20 left-3 z-20 w-[min(15rem,calc(100vw-5.5rem))] border-2 border-border bg-panel/95 p-3 text-ink shadow-pixel"
    >
      <div className="mb-2 flex items-center justify-between gap-2">
        <h3 id="touch-guide-title" className="text-[0.65rem] text-gold">
          Touch Controls
        </h3>
        <button
          type="button"
          aria-label="Dismiss touch controls"
          onClick={() => setOpen(false)}
          className="-my-2 -mr-2 grid size-11 place-items-center border-2 border-transparent text-lg hover:border-border"
        >
          <span aria-hidden="true">×</span>
        </button>
      </div>
      <ul className="space-y-1 text-sm text-ink-muted">
        <li>Pinch to zoom</li>
        <li>Drag to explore</li>
        <li>Tap tiles to claim or view</li>
      </ul>
    </section>
  );
}

/** On touch devices the map fills the screen: this button says there is more below and goes there. */
export function MoreContentButton() {
  return (
    <button
      type="button"
      onClick={() => {
        const target = document.getElementById(CLAIM_SECTION_ID);
        if (target) target.scrollIntoView({ behavior: 'smooth' });
        else window.scrollBy({ top: window.innerHeight, behavior: 'smooth' });
      }}
      className="pointer-events-auto absolute bottom-[max(0.75rem,env(safe-area-inset-bottom))] left-1/2 z-20 min-h-11 -translate-x-1/2 border-2 border-black bg-gold px-4 py-2 text-[0.6rem] text-ink-dark shadow-pixel-sm"
    >
      More content below <span aria-hidden="true">▾</span>
    </button>
  );
}
