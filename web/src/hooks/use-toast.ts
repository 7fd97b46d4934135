import { useSyncExternalStore } from 'react';

export type ToastVariant = 'default' | 'destructive';

export interface ToastOptions {
  title: string;
  description?: string;
  variant?: ToastVariant;
  /** Milliseconds before the toast closes itself; spec default 5000. */
  duration?: number;
}

export interface ToastEntry extends Required<Omit<ToastOptions, 'description'>> {
  id: number;
  description?: string;
  open: boolean;
}

export const DEFAULT_TOAST_DURATION_MS = 5000;
/** Spec: at most one toast on screen; a new one replaces the current one. */
const TOAST_LIMIT = 1;
/** Keeps a closed toast mounted long enough for its exit animation. */
const REMOVE_AFTER_CLOSE_MS = 300;

let toasts: ToastEntry[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function publish(next: ToastEntry[]): void {
  toasts = next;
  for (const listener of listeners) listener();
}

export function dismissToast(id: number): void {
  if (!toasts.some((entry) => entry.id === id && entry.open)) return;
  publish(toasts.map((entry) => (entry.id === id ? { ...entry, open: false } : entry)));
  setTimeout(() => publish(toasts.filter((entry) => entry.id !== id)), REMOVE_AFTER_CLOSE_MS);
}

/** Usable outside React too (e.g. in a mutation's onError). */
export function toast(options: ToastOptions): { id: number; dismiss: () => void } {
  const id = nextId++;
  const entry: ToastEntry = {
    id,
    title: options.title,
    description: options.description,
    variant: options.variant ?? 'default',
    duration: options.duration ?? DEFAULT_TOAST_DURATION_MS,
    open: true,
  };
  publish([entry, ...toasts].slice(0, TOAST_LIMIT));
  return { id, dismiss: () => dismissToast(id) };
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const getSnapshot = () => toasts;

export function useToast(): { toasts: ToastEntry[]; toast: typeof toast; dismiss: typeof dismissToast } {
  const current = useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
  return { toasts: current, toast, dismiss: dismissToast };
}

/** Test helper: forget every toast between tests. */
export function resetToastsForTests(): void {
  publish([]);
}
