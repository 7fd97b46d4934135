import http from 'node:http';

/** One Server-Sent Event as a browser's EventSource sees it. */
export interface LiveEvent {
  id: string | undefined;
  event: string;
  data: string;
}

/** A browser's open GET /api/live, read as it arrives. Used only by tests. */
export interface LiveStream {
  response: http.IncomingMessage;
  /** Everything read so far. */
  readonly received: string;
  /** Every complete event read so far (comments and `retry:` lines are not events). */
  readonly events: LiveEvent[];
  /** The last `id:` received, as EventSource keeps it for its reconnection's `Last-Event-ID`. */
  readonly lastEventId: string | undefined;
  /** Reads on until `text` has arrived. */
  readUntil(text: string, timeoutMs?: number): Promise<void>;
  /** Resolves when the server ends the stream (or the socket is cut). */
  readonly ended: Promise<void>;
  close(): void;
}

/** Opens the stream like EventSource does, from `localAddress` and with `lastEventId` when given. */
export function openLiveStream(url: string, options: { lastEventId?: string; localAddress?: string } = {}): Promise<LiveStream> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
    const request = http.get(
      url,
      { headers, agent: false, ...(options.localAddress ? { localAddress: options.localAddress } : {}) },
      (response) => {
        let received = '';
        let pending = '';
        let lastEventId: string | undefined;
        const events: LiveEvent[] = [];
        const waiters = new Set<() => void>();
        const ended = new Promise<void>((done) => response.on('close', done));
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          received += chunk;
          pending += chunk;
          let end: number;
          while ((end = pending.indexOf('\n\n')) >= 0) {
            const block = pending.slice(0, end);
            pending = pending.slice(end + 2);
            const event: LiveEvent = { id: undefined, event: 'message', data: '' };
            let hasData = false;
            for (const line of block.split('\n')) {
              if (line.startsWith('id:')) event.id = lastEventId = line.slice(3).trim();
              else if (line.startsWith('event:')) event.event = line.slice(6).trim();
              else if (line.startsWith('data:')) {
                event.data += line.slice(5).trim();
                hasData = true;
              }
            }
            if (hasData) events.push(event);
          }
          for (const wake of waiters) wake();
        });
        resolve({
          response,
          get received() {
            return received;
          },
          events,
          get lastEventId() {
            return lastEventId;
          },
          ended,
          readUntil(text, timeoutMs = 10_000) {
            let searchFrom = 0;
            return new Promise<void>((done, fail) => {
              const check = () => {
                const found = received.includes(text, searchFrom);
                searchFrom = Math.max(0, received.length - text.length);
                if (!found) return;
                cleanup();
                done();
              };
              const timer = setTimeout(() => {
                cleanup();
                fail(new Error(`waited ${timeoutMs} ms for ${JSON.stringify(text)}; received:\n${received}`));
              }, timeoutMs);
              const cleanup = () => {
                clearTimeout(timer);
                waiters.delete(check);
              };
              waiters.add(check);
              check();
            });
          },
          close: () => request.destroy(),
        });
      },
    );
    request.on('error', reject);
  });
}
