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
    { label: 'Zoom in', Icon: PlusIcon, move: onZoomIn },
    { label: 'Zoom out', Icon: MinusIcon, move: onZoomOut },
    { label: 'Reset view', Icon: ResetIcon, move: onResetView },
  ];

  return (
    <div
      role="toolbar"
      aria-label="Map controls"
      aria-orientation="vertical"
      data-map-occluder=""
      className="pointer-events-auto absolute right-3 bottom-[max(0.75rem,env(safe-area-inset-bottom))] z-20 flex flex-col gap-1 md:gap-2"
    >
      {moves.map(({ label, Icon, move }) => (
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
          <Icon />
        </button>
      ))}
      <button type="button" aria-label="Fit all" title="Fit all" className={BUTTON} onClick={fitAll}>
        <FitIcon />
      </button>
    </div>
  );
}

/* Pixel icons drawn on a 12x12 grid with square caps, matching the pixel chrome. */
const ICON = {
  width: 20,
  height: 20,
  viewBox: '0 0 12 12',
  'aria-hidden': true,
  fill: 'currentColor',
  shapeRendering: 'crispEdges',
} as const;

function PlusIcon() {
  return (
    <svg {...ICON}>
      <rect x="5" y="1" width="2" height="10" />
      <rect x="1" y="5" width="10" height="2" />
    </svg>
  );
}

function MinusIcon() {
  return (
    <svg {...ICON}>
      <rect x="1" y="5" width="10" height="2" />
    </svg>
  );
}

function ResetIcon() {
  return (
    <svg {...ICON}>
      <rect x="5" y="0" width="2" height="3" />
      <rect x="5" y="9" width="2" height="3" />
      <rect x="0" y="5" width="3" height="2" />
      <rect x="9" y="5" width="3" height="2" />
      <rect x="4" y="4" width="4" height="4" />
    </svg>
  );
}

function FitIcon() {
  return (
    <svg {...ICON}>
      <rect x="0" y="0" width="4" height="2" />
      <rect x="0" y="0" width="2" height="4" />
      <rect x="8" y="0" width="4" height="2" />
      <rect x="10" y="0" width="2" height="4" />
      <rect x="0" y="10" width="4" height="2" />
      <rect x="0" y="8" width="2" height="4" />
      <rect x="8" y="10" width="4" height="2" />
      <rect x="10" y="8" width="2" height="4" />
    </svg>
  );
}
