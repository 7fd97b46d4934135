import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { preloadToaster } from '../app-providers.tsx';
import { resetToastsForTests } from '../hooks/use-toast.ts';

/** False in a test file that runs in Node (`@vitest-environment node`: what the server renders, without a window). */
const inBrowser = typeof window !== 'undefined';

// jsdom lacks these; Radix Select/Tooltip/Toast call them while positioning and handling pointers.
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
if (inBrowser) {
  globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;
  Element.prototype.hasPointerCapture ??= () => false;
  Element.prototype.setPointerCapture ??= () => {};
  Element.prototype.releasePointerCapture ??= () => {};
  Element.prototype.scrollIntoView ??= () => {};
  window.scrollTo = () => {};
  window.scrollBy = () => {};
}

// findBy*/waitFor wait for a fact; their 1 s default is too short for a busy machine, where a render takes longer.
configure({ asyncUtilTimeout: 10_000 });

// In the app the toaster's chunk loads at idle time; here it is in before any test shows a toast.
await preloadToaster();

afterEach(() => {
  if (!inBrowser) return;
  cleanup();
  resetToastsForTests();
  localStorage.clear();
  sessionStorage.clear();
});
