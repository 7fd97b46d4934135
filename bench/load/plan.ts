/** What the parent hands the load-generator process, and what it hands back. */
export type RequestKind = 'map' | 'mapCached' | 'plot' | 'list' | 'position' | 'claim' | 'flag';

export interface LoadPlan {
  url: string;
  connections: number;
  durationSeconds: number;
  /** Each connection cycles through these, in order. */
  mix: RequestKind[];
  mapEtag: string;
  /** Visible plots to read and flag. */
  plotIds: string[];
  /** Land squares to ask about. */
  positions: Array<{ x: number; y: number }>;
  /** Ready JSON bodies of claims for pre-paid sessions, each used once. */
  claims: string[];
}

export interface WorkerResult {
  requests: number;
  requestsPerSecond: number;
  p50: number;
  p90: number;
  p99: number;
  errors: number;
  timeouts: number;
  by: Record<'2xx' | '3xx' | '4xx' | '5xx', number>;
  /** kind → status → count */
  statuses: Record<string, Record<string, number>>;
  claimsSent: number;
}
