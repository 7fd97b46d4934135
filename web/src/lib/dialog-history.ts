/**
 * The history steps that belong to open dialogs (each pushes an entry of its own, so Back closes it), kept from the
 * router. A step the router hears makes it restore that entry's scroll position: a smooth scroll the closing action
 * started ("I'LL SELECT ON THE MAP" scrolling up to the map) stopped part-way.
 *
 * Listeners on `window` run in the order they were added, capturing or not (Chromium), so only a listener added
 * before the router's can keep an event from it: `installDialogHistory` runs before the router is created, and the
 * dialogs (loaded later) register with it.
 */

/** Answers a popstate: true when it was the dialog's own step, which nothing after it may hear. */
type DialogPopHandler = (event: PopStateEvent) => boolean;

const handlers = new Set<DialogPopHandler>();
/** The URL of the step back a closing dialog takes over its own entry, until that step's popstate arrives. */
let ownStepBackTo: string | null = null;
let installed = false;

export function installDialogHistory(): void {
  if (installed || typeof window === 'undefined') return;
  installed = true;
  window.addEventListener('popstate', (event) => {
    if (ownStepBackTo !== null) {
      const ours = ownStepBackTo === window.location.href;
      ownStepBackTo = null;
      if (ours) return event.stopImmediatePropagation();
    }
    for (const handler of [...handlers]) {
      if (handler(event)) return event.stopImmediatePropagation();
    }
  });
}

/** A dialog closed some other way than Back steps back over its own entry, unheard by the router. */
export function stepBackOverDialogEntry(url: string): void {
  ownStepBackTo = url;
  window.history.back();
}

/** While a dialog is open, Back reaches `handler` before the router. Returns the unregister function. */
export function onDialogPopState(handler: DialogPopHandler): () => void {
  handlers.add(handler);
  return () => handlers.delete(handler);
}
