/** One entry of `POST /internal/plot-views` (plots counts it exactly as it counts a `POST /api/plot-stats` beacon). */
export interface PlotViewEntry {
  plotId: string;
  kind: 'view' | 'badge_view';
  /** The client key, '\n', the user agent: at most VISITOR_MAX characters. */
  visitor: string;
  userAgent: string;
  /** The raw `pa_owns` cookie: plots does not count an owner's views of their own plot. */
  ownerCookie?: string;
}

/** Plots refuses a longer visitor; the client key is at most ~45 characters, so the user agent is cut to fit. */
export const VISITOR_MAX = 700;
/** Plots' limits on one request: entries, and a body under 1 MB (with room for the envelope). */
export const UPSTREAM_MAX_ENTRIES = 1000;
export const UPSTREAM_MAX_BODY_BYTES = 900_000;

export type AddOutcome = 'queued' | 'coalesced' | 'dropped';

/**
 * The views heard since the last flush, one entry per (plot, kind, visitor, owner cookie): plots counts a visitor once
 * per plot, kind and day, so a second identical entry carries nothing and is merged into the first. Bounded: past
 * `maxPending` distinct entries new ones are dropped (a count lost, never memory). Entries a failed send took out are
 * put back in front, within the same bound.
 */
export class PlotViewBatch {
  private pending = new Map<string, PlotViewEntry>();

  constructor(private readonly maxPending: number) {}

  get size(): number {
    return this.pending.size;
  }

  add(entry: PlotViewEntry): AddOutcome {
    const key = `${entry.plotId}\t${entry.kind}\t${entry.visitor}\t${entry.ownerCookie ?? ''}`;
    if (this.pending.has(key)) return 'coalesced';
    if (this.pending.size >= this.maxPending) return 'dropped';
    this.pending.set(key, entry);
    return 'queued';
  }

  /**
   * Takes the oldest entries that fit one upstream request (count and bytes), with their JSON already written: the
   * caller sends `{"views":[<parts joined by ','>]}`.
   */
  take(): { keys: string[]; entries: PlotViewEntry[]; body: string } {
    const keys: string[] = [];
    const entries: PlotViewEntry[] = [];
    const parts: string[] = [];
    let bytes = '{"views":[]}'.length;
    for (const [key, entry] of this.pending) {
      const json = JSON.stringify(entry);
      const size = Buffer.byteLength(json) + 1;
      // An entry is at most a few KB (the owner cookie is bounded by the cookie limit), so one always fits.
      if (keys.length >= UPSTREAM_MAX_ENTRIES || (keys.length > 0 && bytes + size > UPSTREAM_MAX_BODY_BYTES)) break;
      keys.push(key);
      entries.push(entry);
      parts.push(json);
      bytes += size;
    }
    for (const key of keys) this.pending.delete(key);
    return { keys, entries, body: `{"views":[${parts.join(',')}]}` };
  }

  /** Puts back what a failed send took, ahead of what came meanwhile; returns how many no longer fit (dropped). */
  restore(taken: { keys: string[]; entries: PlotViewEntry[] }): number {
    const merged = new Map<string, PlotViewEntry>();
    taken.keys.forEach((key, i) => merged.set(key, taken.entries[i]!));
    for (const [key, entry] of this.pending) if (!merged.has(key)) merged.set(key, entry);
    let dropped = 0;
    // When the whole does not fit the newest go: the oldest have waited longest.
    if (merged.size > this.maxPending) {
      const keep = [...merged].slice(0, this.maxPending);
      dropped = merged.size - keep.length;
      this.pending = new Map(keep);
    } else {
      this.pending = merged;
    }
    return dropped;
  }
}

/** The visitor as plots keys it: the client (an IPv4 address, an IPv6 prefix) and its user agent, cut to fit. */
export function plotViewVisitor(clientKey: string, userAgent: string): string {
  return `${clientKey}\n${userAgent}`.slice(0, VISITOR_MAX);
}

export class PlotViewsRejected extends Error {
  constructor(readonly status: number) {
    super(`plots refused a batch of views with ${status}`);
  }
}

/** The call that sends one batch to plots (`POST /internal/plot-views`). */
export const plotViewsCall = (body: string, avoid?: string) => ({ path: '/internal/plot-views', method: 'POST' as const, body, avoid });

/**
 * What plots answered to a batch. A 4xx other than 429 means plots will never take these entries (a contract mismatch
 * or a wrong token): `PlotViewsRejected`, and the caller drops them; anything else throws and the batch is kept.
 */
export async function readPlotViewsAnswer(response: Response): Promise<{ counted: number }> {
  const text = await response.text();
  if (response.ok) {
    const counted = (JSON.parse(text) as { counted?: unknown }).counted;
    return { counted: typeof counted === 'number' ? counted : 0 };
  }
  if (response.status >= 400 && response.status < 500 && response.status !== 429) throw new PlotViewsRejected(response.status);
  throw new Error(`plots answered ${response.status} to a batch of views: ${text.slice(0, 200)}`);
}
