import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { resetToastsForTests } from '../hooks/use-toast.ts';

// jsdom lacks these; Radix Select/Tooltip/Toast call them while positioning and handling pointers.
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;
Element.prototype.hasPointerCapture ??= () => false;
Element.prototype.setPointerCapture ??= () => {};
Element.prototype.releasePointerCapture ??= () => {};
Element.prototype.scrollIntoView ??= () => {};
window.scrollTo = (() => {}) as typeof window.scrollTo;
window.scrollBy = (() => {}) as typeof window.scrollBy;

afterEach(() => {
  cleanup();
  resetToastsForTests();
  localStorage.clear();
  sessionStorage.clear();
});
