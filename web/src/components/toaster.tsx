import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useToast, type ToastEntry } from '../hooks/use-toast.ts';
import { TOAST_VIEWPORT_ATTRIBUTE } from './toaster-viewport.ts';

const VARIANT_CLASSES: Record<ToastEntry['variant'], string> = {
  default: 'border-border bg-panel text-ink',
  destructive: 'border-danger-edge bg-danger text-white',
};

/**
 * Renders the single active toast; mount once near the root.
 *
 * Where: at the top on a phone (a bottom sheet's buttons and the map's zoom controls sit at the bottom),
 * bottom-left from 768 px (the map controls are bottom-right, a claim dialog docks right), at most
 * 420 px wide. Never a dismissable layer of its own: Escape belongs to an open dialog, not to a
 * notification that happens to be showing (the Radix toast took it, so Escape closed the toast and left
 * the dialog open). Each toast is portalled into <body> when it appears, so a screen reader hears it
 * even while a modal dialog hides the rest of the page.
 */
export function Toaster() {
  const { toasts, dismiss } = useToast();
  if (typeof document === 'undefined') return null;
  return (
    <>
      {toasts.map((entry) =>
        createPortal(
          <section
            key={entry.id}
            aria-label="Notifications"
            {...{ [TOAST_VIEWPORT_ATTRIBUTE]: '' }}
            className="pointer-events-none fixed inset-x-2 top-[max(0.5rem,env(safe-area-inset-top))] z-[100] md:inset-x-auto md:top-auto md:bottom-4 md:left-4 md:w-[420px]"
          >
            <ToastCard entry={entry} onDismiss={() => dismiss(entry.id)} />
          </section>,
          document.body,
          String(entry.id),
        ),
      )}
    </>
  );
}

/** One toast: closes itself after its duration, paused while the pointer is over it or it has focus. */
function ToastCard({ entry, onDismiss }: { entry: ToastEntry; onDismiss: () => void }) {
  const [paused, setPaused] = useState(false);
  const remaining = useRef(entry.duration);
  const dismiss = useEffectEvent(onDismiss);

  useEffect(() => {
    if (!entry.open || paused) return;
    const started = Date.now();
    const timer = window.setTimeout(() => dismiss(), remaining.current);
    return () => {
      window.clearTimeout(timer);
      remaining.current = Math.max(0, remaining.current - (Date.now() - started));
    };
  }, [entry.open, paused]);

  return (
    <div
      role={entry.variant === 'destructive' ? 'alert' : 'status'}
      aria-live={entry.variant === 'destructive' ? 'assertive' : 'polite'}
      aria-atomic="true"
      data-variant={entry.variant}
      data-state={entry.open ? 'open' : 'closed'}
      onPointerEnter={() => setPaused(true)}
      onPointerLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
      // Escape with the focus on the toast itself (its close button) closes it; anywhere else Escape is not the toast's.
      onKeyDown={(event) => {
        if (event.key === 'Escape') onDismiss();
      }}
      className={`toast-root pointer-events-auto relative flex w-full items-start gap-3 border-2 p-3 pr-12 shadow-pixel md:p-4 md:pr-12 ${VARIANT_CLASSES[entry.variant]}`}
    >
      <div className="grid gap-1">
        <p className="font-pixel text-xs leading-relaxed">{entry.title}</p>
        {entry.description ? <p className="text-sm opacity-90">{entry.description}</p> : null}
      </div>
      <button
        type="button"
        aria-label="Close notification"
        onClick={onDismiss}
        className="absolute top-1 right-1 grid size-11 place-items-center text-lg leading-none opacity-80 hover:opacity-100"
      >
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}
