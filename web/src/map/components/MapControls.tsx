import { useEffect, useRef } from 'react';

/** Spec section 9: fit-all resets, then zooms out twice after 100 ms and a further 50 ms. */
export const FIT_ALL_FIRST_DELAY_MS = 100;
export const FIT_ALL_SECOND_DELAY_MS = 50;
export const CONTROL_VIBRATION_MS = 50;

export interface MapControlsProps {
  onZoomIn: () => void;
  onZoomOut: () => void;
  onResetView: () => void;
}

function vibrate(): void {
  // Optional: not every browser (or device) can vibrate.
  navigator.vibrate?.(CONTROL_VIBRATION_MS);
}

/** 44 px on phones (the thumb-sized minimum, so the four leave more of the map), 48 px above. */
const BUTTON =
  'grid size-11 md:size-12 place-items-center border-2 border-black bg-panel-raised text-ink shadow-pixel-sm transition-transform duration-75 ' +
  'hover:bg-[#372e56] active:translate-x-[2px] active:translate-y-[2px] active:shadow-none';

/** Bottom-right zoom controls: every button is at least 44 px and labelled for screen readers. */
export function MapControls({ onZoomIn, onZoomOut, onResetView }: MapControlsProps) {
  const timers = useRef<number[]>([]);
  useEffect(
    () => () => {
      for (const timer of timers.current) window.clearTimeout(timer);
    },
    [],
  );

  const fitAll = () => {
    onResetView();
    timers.current.push(
      window.setTimeout(() => {
        onZoomOut();
        timers.current.push(window.setTimeout(onZoomOut, FIT_ALL_SECOND_DELAY_MS));
      }, FIT_ALL_FIRST_DELAY_MS),
    );
  };

  /** The single moves, each felt as a short vibration; fit all is a sequence of them and stays still. */
  const moves = [
    { label: 'Zoom in', icon: PLUS, move: onZoomIn },
    { label: 'Zoom out', icon: MINUS, move: onZoomOut },
    { label: 'Reset view', icon: RESET, move: onResetView },
  ];

  return (
    <div
      role="toolbar"
      aria-label="Map controls"
      aria-orientation="vertical"
      data-map-occluder=""
      className="pointer-events-auto absolute right-3 bottom-[max(0.75rem,env(safe-area-inset-bottom))] z-20 flex flex-col gap-1 md:gap-2"
    >
      {moves.map(({ label, icon, move }) => (
        <button
          key={label}
          type="button"
          aria-label={label}
          title={label}
          className={BUTTON}
          onClick={() => {
            vibrate();
            move();
          }}
        >
          <PixelIcon path={icon} />
        </button>
      ))}
      <button type="button" aria-label="Fit all" title="Fit all" className={BUTTON} onClick={fitAll}>
        <PixelIcon path={FIT} />
      </button>
    </div>
  );
}

/*
 * Pixel icons on a 12x12 grid with square caps, matching the pixel chrome: SVG path data, one subpath per
 * rectangle ("M x y h width v height h -width z"), all drawn the same way round so overlaps stay filled.
 */
const PLUS = 'M5 1h2v10h-2z M1 5h10v2h-10z';
const MINUS = 'M1 5h10v2h-10z';
const RESET = 'M5 0h2v3h-2z M5 9h2v3h-2z M0 5h3v2h-3z M9 5h3v2h-3z M4 4h4v4h-4z';
/** Four corner brackets. */
const FIT = 'M0 0h4v2h-4z M0 0h2v4h-2z M8 0h4v2h-4z M10 0h2v4h-2z M0 10h4v2h-4z M0 8h2v4h-2z M8 10h4v2h-4z M10 8h2v4h-2z';

function PixelIcon({ path }: { path: string }) {
  return (
    <svg width={20} height={20} viewBox="0 0 12 12" aria-hidden fill="currentColor" shapeRendering="crispEdges">
      <path d={path} />
    </svg>
  );
}
