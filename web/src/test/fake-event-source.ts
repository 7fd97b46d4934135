import { vi } from 'vitest';

type Listener = (event: MessageEvent<string>) => void;

/** Just enough of EventSource for the live updates: named events delivered by the test, and close(). */
export class FakeEventSource {
  static instances: FakeEventSource[] = [];
  readonly listeners = new Map<string, Set<Listener>>();
  closed = false;
  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }
  addEventListener(type: string, listener: Listener) {
    const listeners = this.listeners.get(type) ?? new Set<Listener>();
    listeners.add(listener);
    this.listeners.set(type, listeners);
  }
  removeEventListener(type: string, listener: Listener) {
    this.listeners.get(type)?.delete(listener);
  }
  close() {
    this.closed = true;
  }
  /** Delivers a named event with `data` as its JSON text, or `rawData` as it is. */
  emit(type: string, data: unknown = {}, rawData = JSON.stringify(data)) {
    const event = new MessageEvent(type, { data: rawData });
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }
}

/** Puts the fake in place of EventSource for this test; returns the streams still open. */
export function stubEventSource(): () => FakeEventSource[] {
  FakeEventSource.instances = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  return () => FakeEventSource.instances.filter((source) => !source.closed);
}

/** The one stream the app keeps open. */
export function openStream(): FakeEventSource {
  const open = FakeEventSource.instances.filter((source) => !source.closed);
  if (open.length !== 1) throw new Error(`expected one open stream, found ${open.length}`);
  return open[0] as FakeEventSource;
}
