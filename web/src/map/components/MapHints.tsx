import { CLAIM_SECTION_ID } from '../../lib/tier-guidance.ts';

export const DESKTOP_HINT = 'Click and drag to explore • Scroll to zoom';

export function DesktopHint() {
  return (
    <p
      data-map-occluder=""
      className="pointer-events-none absolute bottom-3 left-1/2 z-10 -translate-x-1/2 border-2 border-black bg-panel px-3 py-2 text-xs whitespace-nowrap text-ink shadow-pixel-sm"
    >
      {DESKTOP_HINT}
    </p>
  );
}

/**
 * The spec's 'Touch Controls' guide, kept small (the map is what a phone visitor came to see): it goes
 * with its × or with the first gesture on the map, for the rest of the session (AtlasMap decides).
 */
export function TouchGuide({ onDismiss }: { onDismiss: () => void }) {
  return (
    // The whole card is the thumb-sized target (a tap on it dismisses it); the × is the keyboard's way.
    <section
      aria-labelledby="touch-guide-title"
      data-map-occluder=""
      onClick={onDismiss}
      className="pointer-events-auto absolute bottom-[calc(max(0.75rem,env(safe-area-inset-bottom))+3.25rem)] left-3 z-20 flex min-h-11 max-w-[calc(100vw-5.5rem)] items-start gap-1 border-2 border-border bg-panel py-1 pr-1 pl-2 text-ink shadow-pixel-sm"
    >
      <div>
        <h2 id="touch-guide-title" className="text-[0.5rem] leading-[14px] text-gold">
          Touch Controls
        </h2>
        <ul className="text-[11px] leading-[14px] text-ink-muted">
          <li className="inline after:content-['_·_']">Pinch to zoom</li>
          <li className="inline">Drag to explore</li>
          <li>Tap tiles to claim or view</li>
        </ul>
      </div>
      <button
        type="button"
        aria-label="Dismiss touch controls"
        onClick={(event) => {
          event.stopPropagation();
          onDismiss();
        }}
        className="grid size-6 shrink-0 place-items-center text-base leading-none hover:text-gold"
      >
        <span aria-hidden="true">×</span>
      </button>
    </section>
  );
}

/** On touch devices the map fills the screen: this button says there is more below and goes there. */
export function MoreContentButton() {
  return (
    <button
      type="button"
      data-map-occluder=""
      onClick={() => {
        const target = document.getElementById(CLAIM_SECTION_ID);
        if (target) target.scrollIntoView({ behavior: 'smooth' });
        else window.scrollBy({ top: window.innerHeight, behavior: 'smooth' });
      }}
      className="pointer-events-auto absolute bottom-[max(0.75rem,env(safe-area-inset-bottom))] left-1/2 z-20 min-h-11 w-[calc(12ch+1.5rem)] -translate-x-1/2 border-2 border-black bg-gold px-2.5 py-1 text-[0.5rem] leading-3 text-ink-dark shadow-pixel-sm"
    >
      More content below <span aria-hidden="true">▾</span>
    </button>
  );
}
