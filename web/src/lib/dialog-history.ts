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
/** Settles the step back in flight once its popstate has arrived. */
let landing: (() => void) | null = null;
let installed = false;

export function installDialogHistory(): void {
  if (installed || typeof window === 'undefined') return;
  installed = true;
  window.addEventListener('popstate', (event) => {
    if (ownStepBackTo !== null) {
      const ours = ownStepBackTo === window.location.href;
      ownStepBackTo = null;
      const landed = landing;
      landing = null;
      if (ours) event.stopImmediatePropagation();
      landed?.();
      if (ours) return;
    }
    for (const handler of [...handlers]) {
      if (handler(event)) return event.stopImmediatePropagation();
    }
  });
}

/** Steps back decided on and not yet landed; what waits for them (see `afterDialogSteps`). */
let pendingSteps = 0;
let waiting: Array<() => void> = [];
/** A step back that never lands (no entry to go back to) must not hold what waits for ever. */
const STEP_LANDS_WITHIN_MS = 1000;

function stepSettled(): void {
  pendingSteps = Math.max(0, pendingSteps - 1);
  if (pendingSteps > 0) return;
  const run = waiting;
  waiting = [];
  for (const task of run) task();
}

/**
 * A dialog closed some other way than Back steps back over its own entry, unheard by the router: a task later (a
 * dialog mounted again at once, as StrictMode's rehearsal does, cancels it), and only if `stillOwnsTop()` then.
 * Returns the cancel function.
 */
export function stepBackLater(url: string, stillOwnsTop: () => boolean): () => void {
  pendingSteps += 1;
  let settled = false;
  const settle = () => {
    if (settled) return;
    settled = true;
    stepSettled();
  };
  const timer = window.setTimeout(() => {
    if (!stillOwnsTop()) return settle();
    ownStepBackTo = url;
    landing = settle;
    window.setTimeout(() => {
      if (landing !== settle) return;
      ownStepBackTo = null;
      landing = null;
      settle();
    }, STEP_LANDS_WITHIN_MS);
    window.history.back();
  }, 0);
  return () => {
    window.clearTimeout(timer);
    if (landing !== settle) settle();
  };
}

/**
 * Runs `task` once no dialog's step back is pending. A navigation written while one is in flight would be undone when
 * it lands (the browser goes back from the navigation's entry, not the dialog's): "Make a New Link" closes its
 * question, then replaces the page's address with the new link's.
 */
export function afterDialogSteps(task: () => void): void {
  if (pendingSteps === 0) task();
  else waiting.push(task);
}

/** While a dialog is open, Back reaches `handler` before the router. Returns the unregister function. */
export function onDialogPopState(handler: DialogPopHandler): () => void {
  handlers.add(handler);
  return () => handlers.delete(handler);
}
