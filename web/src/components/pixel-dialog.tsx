import * as DialogPrimitive from '@radix-ui/react-dialog';
import { installDialogHistory, onDialogPopState, stepBackLater } from '../lib/dialog-history.ts';
import { MAP_ELEMENT_ID } from '../lib/tier-guidance.ts';
import { useEffect, useId, useLayoutEffect, useRef, useState, type ComponentPropsWithoutRef, type ReactNode, type RefObject } from 'react';
import { TOAST_VIEWPORT_ATTRIBUTE } from './toaster-viewport.ts';

interface PixelDialogContentProps extends Omit<ComponentPropsWithoutRef<typeof DialogPrimitive.Content>, 'title'> {
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  /**
   * 'center' (default): a centred card from 768 px. 'beside-map': for a dialog about a spot on the map (the
   * claim popup): docked to the right edge from 768 px, a lighter backdrop, and on phones a sheet that
   * stops at 72 % of the height, so the map can show the chosen tile beside or above it.
   */
  placement?: 'center' | 'beside-map';
}

const SHEET =
  'dialog-content fixed inset-x-0 bottom-0 z-50 overflow-y-auto border-2 border-b-0 border-border bg-panel p-5 pb-[max(1.25rem,env(safe-area-inset-bottom))] text-ink shadow-pixel md:border-b-2 md:p-6 ';
const PLACEMENT: Record<NonNullable<PixelDialogContentProps['placement']>, { overlay: string; content: string }> = {
  center: {
    overlay: 'bg-black/75',
    content:
      'max-h-[90dvh] md:inset-x-auto md:bottom-auto md:top-1/2 md:left-1/2 md:w-full md:max-w-lg md:-translate-x-1/2 md:-translate-y-1/2 ',
  },
  'beside-map': {
    overlay: 'bg-black/40',
    content:
      'max-h-[72dvh] md:inset-x-auto md:top-1/2 md:right-4 md:bottom-auto md:left-auto md:max-h-[calc(100dvh-2rem)] md:w-[min(46rem,calc(100vw-2rem))] md:-translate-y-1/2 ',
  },
};

/** Presses on a notification are not 'outside' a dialog: closing a toast must not close the dialog under it. */
function isInsideToast(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest(`[${TOAST_VIEWPORT_ATTRIBUTE}]`) !== null;
}

/**
 * The shared dialog surface: a bottom sheet under 768 px and a centred card (or, beside the map, a card
 * docked right) above (ARCHITECTURE.md section 8). Use inside <Dialog.Root>; clicking the backdrop or
 * pressing Escape closes it, also while a notification is showing.
 */
export function PixelDialogContent({
  title,
  description,
  children,
  className = '',
  placement = 'center',
  onCloseAutoFocus,
  onInteractOutside,
  ...props
}: PixelDialogContentProps) {
  const opener = useRef<Element | null>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className={`dialog-overlay fixed inset-0 z-50 ${PLACEMENT[placement].overlay}`} />
      <DialogPrimitive.Content
        {...props}
        onInteractOutside={(event) => {
          onInteractOutside?.(event);
          if (isInsideToast(event.target)) event.preventDefault();
        }}
        onCloseAutoFocus={(event) => {
          onCloseAutoFocus?.(event);
          if (event.defaultPrevented) return;
          // Our dialogs open without a Radix Trigger (the map canvas, a header button, a form's submit), so
          // Radix would drop focus on <body>: give it back to whatever had it when the dialog opened.
          // When that is gone (a dialog opened from another dialog that has closed since, e.g. auto-assign's
          // claim popup), the map is where the buyer was.
          const element = opener.current;
          const openerStillThere = element instanceof HTMLElement && element !== document.body && element.isConnected;
          const stillInDialog = document.querySelector('[role="dialog"][data-state="open"]') !== null;
          const target = openerStillThere ? element : stillInDialog ? null : mapCanvas();
          if (target) {
            event.preventDefault();
            target.focus({ preventScroll: true });
          }
        }}
        data-placement={placement}
        className={SHEET + PLACEMENT[placement].content + className}
      >
        <RememberOpener openerRef={opener} />
        <CloseOnBack closeRef={closeButton} />
        <div className="mb-4 flex items-start justify-between gap-4">
          <DialogPrimitive.Title className="font-pixel text-sm leading-relaxed text-gold">{title}</DialogPrimitive.Title>
          <DialogPrimitive.Close
            ref={closeButton}
            aria-label="Close"
            className="-mt-2 -mr-2 grid size-11 shrink-0 place-items-center border-2 border-transparent text-xl hover:border-border"
          >
            <span aria-hidden="true">×</span>
          </DialogPrimitive.Close>
        </div>
        {description ? (
          <DialogPrimitive.Description className="mb-4 text-sm text-ink-muted">{description}</DialogPrimitive.Description>
        ) : null}
        {children}
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

/**
 * Mounts with the dialog's content (each time it opens) and notes the focused element during that render,
 * before an autoFocus inside the dialog (Find Plots' search box) or Radix moves focus in; hands it over once committed.
 */
function RememberOpener({ openerRef }: { openerRef: RefObject<Element | null> }) {
  const [opener] = useState(() => {
    const active = document.activeElement;
    return active && active !== document.body ? active : lastFocused;
  });
  useLayoutEffect(() => {
    openerRef.current = opener;
  }, [openerRef, opener]);
  return null;
}

/** The key, in history.state, of the entry an open dialog pushed. */
const DIALOG_ENTRY_KEY = 'pixelAtlasDialog';
/** Set once the browser starts leaving the page (PAY & CLAIM to the checkout): a step back then would cancel that. */
let leavingPage = false;
if (typeof window !== 'undefined') window.addEventListener('beforeunload', () => (leavingPage = true));
const topEntryIs = (id: string) => (window.history.state as Record<string, unknown> | null)?.[DIALOG_ENTRY_KEY] === id;
// The app installs it before its router (main.tsx); a dialog rendered on its own (a unit test) installs it here.
installDialogHistory();

/**
 * Back closes the dialog rather than leaving the page (and losing what was typed in it): while the dialog is open it has
 * a history entry of its own (same URL), and going back past it closes the dialog through its Close button, as a tap
 * there would. Closed any other way, it steps back over that entry, so Back afterwards goes where it went before.
 */
function CloseOnBack({ closeRef }: { closeRef: RefObject<HTMLButtonElement | null> }) {
  const id = useId();
  // StrictMode's rehearsal unmounts and mounts again at once: the step back waits a task, and the remount cancels it.
  const cancelStepBack = useRef<(() => void) | null>(null);
  useEffect(() => {
    cancelStepBack.current?.();
    cancelStepBack.current = null;
    if (!topEntryIs(id)) window.history.pushState({ ...(window.history.state as object | null), [DIALOG_ENTRY_KEY]: id }, '');
    const url = window.location.href;
    const stopListening = onDialogPopState(() => {
      if (topEntryIs(id)) return false;
      closeRef.current?.click();
      // Back to the same page: only this dialog closes, the router hears nothing (no scroll restored, nothing reloaded).
      return window.location.href === url;
    });
    return () => {
      stopListening();
      cancelStepBack.current = stepBackLater(url, () => topEntryIs(id) && !leavingPage);
    };
  }, [id, closeRef]);
  return null;
}

/**
 * The element that last took focus. A button that disables itself while its request runs (PAY & CLAIM checking
 * the position before 'Content Under Review' opens) has already lost focus to <body> when the dialog opens.
 */
let lastFocused: Element | null = null;
if (typeof document !== 'undefined') {
  document.addEventListener('focusin', (event) => (lastFocused = event.target instanceof Element ? event.target : null), true);
}

/** The atlas map's canvas on the home page (focusable: the engine gives it tabIndex 0), or null elsewhere. */
export function mapCanvas(): HTMLElement | null {
  return document.querySelector<HTMLElement>(`#${MAP_ELEMENT_ID} canvas[aria-roledescription="map"]`);
}
