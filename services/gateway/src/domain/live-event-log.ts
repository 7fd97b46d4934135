/** The two event families a live map hears, each read from the stream by its own consumer (NATS 2.9 filters on one subject). */
export const LIVE_FEEDS = ['plots', 'map'] as const;
export type LiveFeed = (typeof LIVE_FEEDS)[number];

/** Per feed, the stream sequence up to which a browser has heard every event of that feed. */
export type LiveCursor = Record<LiveFeed, number>;

/** What a browser is told: which list changed and why. */
export interface LiveMessage {
  event: 'plots-changed' | 'map-changed';
  data: { reason: string; plotId?: string };
}

export interface LiveEntry {
  feed: LiveFeed;
  seq: number;
  /** `event:` and `data:` lines, serialised once; the `id:` line is put in front per cursor. */
  body: string;
}

/** What a (re)connecting browser gets. */
export interface LiveResume {
  /** true: `replay` is everything it missed; false: its id meant nothing here, so it must refetch what it shows. */
  resumed: boolean;
  /** Where the browser stood: its own cursor when resumed, else the replica's position. */
  from: LiveCursor;
  /** Where it stands once `replay` is sent. */
  cursor: LiveCursor;
  replay: LiveEntry[];
}

/**
 * The recent live events of one gateway replica, and the ids browsers resume from.
 *
 * An event's id is `<generation>-<plots seq>-<map seq>`: the stream's creation time (so ids from a stream that was
 * recreated, whose sequences restarted, are recognised as foreign) and, per feed, the JetStream sequence of the
 * latest event of that feed the browser has been sent. The sequences are the stream's own, so every replica
 * agrees on them: a browser whose replica died resumes on another with `Last-Event-ID` and is sent exactly the
 * events after its cursor, from this log, then follows live ones it has not had.
 *
 * The log knows every event of a feed after `completeAfter[feed]`: the replica's consumers start at a known stream
 * sequence, and an evicted entry moves the bound up to its own sequence (whoever saw it has nothing older missing).
 * A cursor below that bound, or from another generation, cannot be resumed: the browser refetches instead.
 */
export class LiveEventLog {
  private readonly entries: LiveEntry[] = [];
  private head = 0;
  readonly position: LiveCursor = { plots: 0, map: 0 };
  private readonly completeAfter: LiveCursor = { plots: Number.POSITIVE_INFINITY, map: Number.POSITIVE_INFINITY };
  private generation: string | undefined;
  private streamEnd = 0;

  constructor(private readonly capacity: number) {}

  /**
   * (Re)starts the log on a stream, returning the sequence each feed's consumer must start at: on a stream it
   * already follows, right after what it has; on a new one (first start, or the stream was recreated), `backfillFrom`,
   * so that browsers whose replica died can resume here even when this replica has just started. `streamEnd` is the
   * stream's last sequence now: a browser that connects afresh has fetched what the map shows after it, so it is
   * never sent what was read back.
   */
  open(generation: string, backfillFrom: number, streamEnd: number): LiveCursor {
    this.streamEnd = streamEnd;
    if (generation !== this.generation) {
      this.entries.length = 0;
      this.head = 0;
      this.generation = generation;
      for (const feed of LIVE_FEEDS) {
        this.position[feed] = Math.max(0, backfillFrom - 1);
        this.completeAfter[feed] = this.position[feed];
      }
    }
    return { plots: this.position.plots + 1, map: this.position.map + 1 };
  }

  get isOpen(): boolean {
    return this.generation !== undefined;
  }

  /** Records an event the feed's consumer delivered; false when it was already recorded (a consumer redelivery). */
  append(feed: LiveFeed, seq: number, message: LiveMessage | null): LiveEntry | undefined {
    if (seq <= this.position[feed]) return undefined;
    this.position[feed] = seq;
    if (!message) return undefined;
    const entry: LiveEntry = { feed, seq, body: `event: ${message.event}\ndata: ${JSON.stringify(message.data)}\n\n` };
    this.entries.push(entry);
    if (this.entries.length - this.head > this.capacity) {
      const evicted = this.entries[this.head]!;
      this.completeAfter[evicted.feed] = evicted.seq;
      this.head += 1;
      // Compact now and then rather than shift() per event.
      if (this.head >= this.capacity) {
        this.entries.splice(0, this.head);
        this.head = 0;
      }
    }
    return entry;
  }

  /** The `id:` a browser at `cursor` gets. */
  idFor(cursor: LiveCursor): string {
    return `${this.generation ?? '0'}-${cursor.plots}-${cursor.map}`;
  }

  /** Where a browser that sent `lastEventId` (or none) stands, and what it missed. */
  resume(lastEventId: string | undefined): LiveResume {
    const here = { ...this.position };
    const cursor = lastEventId === undefined ? undefined : this.parse(lastEventId);
    if (!cursor || !this.isOpen || LIVE_FEEDS.some((feed) => cursor[feed] < this.completeAfter[feed])) {
      const fresh = { plots: Math.max(here.plots, this.streamEnd), map: Math.max(here.map, this.streamEnd) };
      return { resumed: false, from: fresh, cursor: fresh, replay: [] };
    }
    const replay: LiveEntry[] = [];
    for (let i = this.head; i < this.entries.length; i++) {
      const entry = this.entries[i]!;
      if (entry.seq > cursor[entry.feed]) replay.push(entry);
    }
    // In the stream's order: each feed's consumer delivers in order, but which feed's event comes first differs from
    // replica to replica, and a browser must be sent the same events with the same ids wherever it resumes.
    replay.sort((a, b) => a.seq - b.seq);
    // A browser that came from a replica further along keeps its cursor: what it has had is skipped here.
    return {
      resumed: true,
      from: cursor,
      cursor: { plots: Math.max(cursor.plots, here.plots), map: Math.max(cursor.map, here.map) },
      replay,
    };
  }

  private parse(id: string): LiveCursor | undefined {
    const match = /^([0-9a-z]{1,16})-(\d{1,15})-(\d{1,15})$/.exec(id.trim());
    if (!match || match[1] !== this.generation) return undefined;
    return { plots: Number(match[2]), map: Number(match[3]) };
  }
}
