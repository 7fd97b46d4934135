import type { Socket } from 'node:net';
import { LIVE_FEEDS, type LiveCursor, type LiveEntry, type LiveEventLog } from './domain/live-event-log.ts';

/** One open stream. Kept small: 10,000 of them live in one replica. */
interface LiveClient {
  /** The connection itself: after the headers, the stream's bytes go straight to it (see the route). */
  socket: Socket;
  address: string;
  /** Set while the browser is further along a feed than this replica (it came from a replica ahead of this one). */
  ahead: LiveCursor | undefined;
}

export interface LiveClientsOptions {
  events: LiveEventLog;
  /** Bytes a browser may leave unread before it is cut off (it resumes on reconnect, missing nothing). */
  maxUnreadBytes: number;
  onDropped: () => void;
}

const heartbeatBytes = Buffer.from(': heartbeat\n\n');

/**
 * The live streams one replica holds, counted per client address for the caps, and what each has been sent. A
 * stream is written to its socket as is: a browser that stops reading is cut off at `maxUnreadBytes` instead of being
 * buffered without bound.
 */
export class LiveClients {
  private readonly clients = new Set<LiveClient>();
  private readonly perClient = new Map<string, number>();

  constructor(private readonly opts: LiveClientsOptions) {}

  get size(): number {
    return this.clients.size;
  }

  get addresses(): number {
    return this.perClient.size;
  }

  heldBy(address: string): number {
    return this.perClient.get(address) ?? 0;
  }

  /** Counts a stream against its address before it opens, so the cap holds from the moment it is granted. */
  hold(address: string): void {
    this.perClient.set(address, this.heldBy(address) + 1);
  }

  /**
   * Starts a held stream whose head is already written: `greeting` goes first; `cursor` is where the browser stands
   * once it is sent. The socket's close (the browser went away, was cut off, or the stream was ended at shutdown)
   * gives the address's place back.
   */
  open(socket: Socket, address: string, cursor: LiveCursor, greeting: string): void {
    const client: LiveClient = { socket, address, ahead: undefined };
    if (LIVE_FEEDS.some((feed) => cursor[feed] > this.opts.events.position[feed])) client.ahead = { ...cursor };
    this.clients.add(client);
    this.write(client, greeting);
    socket.once('close', () => {
      if (!this.clients.delete(client)) return;
      const left = (this.perClient.get(address) ?? 1) - 1;
      if (left > 0) this.perClient.set(address, left);
      else this.perClient.delete(address);
    });
  }

  broadcast(entry: LiveEntry): void {
    const { events } = this.opts;
    // In-step browsers were at the replica's position before this event: they all get the same bytes, encoded once.
    const shared = Buffer.from(`id: ${events.idFor(events.position)}\n${entry.body}`);
    for (const client of this.clients) {
      if (client.ahead === undefined) this.write(client, shared);
      else this.sendAhead(client, entry);
    }
  }

  /** After an event without a message (a hidden plot), browsers that were ahead may now be in step. */
  settleAhead(): void {
    const { events } = this.opts;
    for (const client of this.clients) {
      if (client.ahead && LIVE_FEEDS.every((feed) => client.ahead![feed] <= events.position[feed])) client.ahead = undefined;
    }
  }

  heartbeat(): void {
    for (const client of this.clients) this.write(client, heartbeatBytes);
  }

  /** At shutdown: every stream ends, and browsers resume elsewhere. */
  endAll(): void {
    for (const client of this.clients) client.socket.end();
    this.clients.clear();
    this.perClient.clear();
  }

  /** A browser further along than this replica: skip what it has had, until the replica catches up with it. */
  private sendAhead(client: LiveClient, entry: LiveEntry): void {
    const { events } = this.opts;
    const ahead = client.ahead!;
    if (entry.seq > ahead[entry.feed]) {
      ahead[entry.feed] = entry.seq;
      this.write(client, `id: ${events.idFor(ahead)}\n${entry.body}`);
    }
    if (LIVE_FEEDS.every((feed) => ahead[feed] <= events.position[feed])) client.ahead = undefined;
  }

  private write(client: LiveClient, chunk: string | Buffer): void {
    const { socket } = client;
    if (socket.destroyed || !socket.writable) return;
    socket.write(chunk);
    if (socket.writableLength > this.opts.maxUnreadBytes) {
      this.opts.onDropped();
      socket.destroy();
    }
  }
}
