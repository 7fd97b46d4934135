import net from 'node:net';

/**
 * One browser's EventSource on `GET /api/live`, over its own socket from its own loopback address. It speaks HTTP/1.1
 * on a plain socket: one benchmark process reads every viewer, and Node's HTTP client (parser, IncomingMessage
 * stream, string decoder per response) made that process, not the gateway, the slowest part of a broadcast.
 */
export class Viewer {
  /** Plot id → when this viewer first heard of it (performance.now()). */
  readonly heard = new Map<string, number>();
  duplicates = 0;
  lastEventId: string | undefined;
  /** The reconnection delay the server asked for (`retry:`), as EventSource honours it. */
  retryMs = 3000;
  connected = false;
  private socket: net.Socket | undefined;
  private onClose: (() => void) | undefined;

  constructor(readonly localAddress: string) {}

  /** Resolves once the stream said `ready`; `onClose` runs when the server side goes away. */
  connect(port: number, onClose?: () => void): Promise<void> {
    this.onClose = onClose;
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host: '127.0.0.1', port, localAddress: this.localAddress });
      this.socket = socket;
      const lastEventId = this.lastEventId === undefined ? '' : `Last-Event-ID: ${this.lastEventId}\r\n`;
      socket.write(`GET /api/live HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n${lastEventId}\r\n`);
      socket.setEncoding('latin1'); // the stream is ASCII; latin1 decodes without a decoder's state
      let head: string | undefined = '';
      let buffer = '';
      socket.on('data', (chunk: string) => {
        if (head !== undefined) {
          head += chunk;
          const end = head.indexOf('\r\n\r\n');
          if (end < 0) return;
          const status = head.slice(9, 12);
          if (status !== '200' || /\r\ntransfer-encoding:/i.test(head.slice(0, end))) {
            socket.destroy();
            reject(new Error(`live stream answered ${status === '200' ? 'with chunked framing this reader does not parse' : status}`));
            return;
          }
          chunk = head.slice(end + 4);
          head = undefined;
        }
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (this.handle(block) === 'ready' && !this.connected) {
            this.connected = true;
            resolve();
          }
        }
      });
      socket.on('close', () => {
        if (!this.connected) reject(new Error('the live stream closed before ready'));
        this.closed();
      });
      socket.on('error', (error) => {
        if (!this.connected) reject(error);
      });
    });
  }

  close(): void {
    this.onClose = undefined;
    this.socket?.destroy();
  }

  private closed(): void {
    if (!this.connected) return;
    this.connected = false;
    const onClose = this.onClose;
    this.onClose = undefined;
    onClose?.();
  }

  /** One SSE message block; returns its event name. Cheap on purpose: one process reads every viewer's events. */
  private handle(block: string): string | undefined {
    let event = 'message';
    let start = 0;
    while (start < block.length) {
      let end = block.indexOf('\n', start);
      if (end < 0) end = block.length;
      const line = block.slice(start, end);
      start = end + 1;
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('id:')) this.lastEventId = line.slice(3).trim();
      else if (line.startsWith('retry:')) this.retryMs = Number(line.slice(6).trim()) || this.retryMs;
      else if (event === 'plots-changed' && line.startsWith('data:')) {
        const at = line.indexOf('"plotId":"');
        if (at < 0) continue;
        const plotId = line.slice(at + 10, line.indexOf('"', at + 10));
        if (this.heard.has(plotId)) this.duplicates += 1;
        else this.heard.set(plotId, performance.now());
      }
    }
    return event;
  }
}

/** The loopback address of viewer `index`, `perAddress` viewers to an address (the gateway's per-address cap). */
export function viewerAddress(index: number, perAddress: number): string {
  const n = Math.floor(index / perAddress) + 1;
  return `127.1.${(n >> 8) & 255}.${n & 255}`;
}
