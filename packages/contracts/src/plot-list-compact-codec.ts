import { plotIdFor } from './plot-id.ts';
import type { Plot } from './plots.ts';

/** The compact plot list's columns (the schema, with its documentation, is plot-list-compact.ts). */
/** 2: `id` is null where the id is `plotIdFor(created_at, x, y)`. */
export const PLOT_LIST_COMPACT_VERSION = 2;

export interface PlotListCompact {
  version: typeof PLOT_LIST_COMPACT_VERSION;
  id: Array<string | null>;
  zone: string[];
  tier: Array<Plot['tier']>;
  x: number[];
  y: number[];
  display_name: string[];
  message: string[];
  link: Array<string | null>;
  avatar_url: Array<string | null>;
  created_at: number[];
  flagged: Array<0 | 1>;
  reviewed: Array<0 | 1>;
  region_name: Array<string | null>;
  updated_at: Array<number | null>;
}

const COLUMNS = [
  'id',
  'zone',
  'tier',
  'x',
  'y',
  'display_name',
  'message',
  'link',
  'avatar_url',
  'created_at',
  'flagged',
  'reviewed',
  'region_name',
  'updated_at',
] as const;

const defaultAvatarUrl = (id: string) => `/api/plots/${id}/avatar`;
/** The id a plot made at that time and place has (null where no such id exists: never equal to a real one). */
const derivableId = (createdAtMs: number, plot: Pick<Plot, 'x' | 'y'>) => {
  try {
    return plotIdFor(createdAtMs, plot.x, plot.y);
  } catch {
    return null;
  }
};
const millis = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

export function encodePlotListCompact(plots: readonly Plot[]): PlotListCompact {
  const compact: PlotListCompact = {
    version: PLOT_LIST_COMPACT_VERSION,
    ...(Object.fromEntries(COLUMNS.map((name) => [name, []])) as unknown as Omit<PlotListCompact, 'version'>),
  };
  let previousCreatedAt = 0;
  for (const plot of plots) {
    const createdAt = millis(plot.created_at);
    compact.id.push(plot.id === derivableId(createdAt, plot) ? null : plot.id);
    compact.zone.push(plot.zone);
    compact.tier.push(plot.tier);
    compact.x.push(plot.x);
    compact.y.push(plot.y);
    compact.display_name.push(plot.display_name);
    compact.message.push(plot.message);
    compact.link.push(plot.link);
    compact.avatar_url.push(plot.avatar_url === defaultAvatarUrl(plot.id) ? null : plot.avatar_url);
    compact.created_at.push(createdAt - previousCreatedAt);
    compact.flagged.push(plot.flagged ? 1 : 0);
    compact.reviewed.push(plot.reviewed ? 1 : 0);
    compact.region_name.push(plot.region_name ?? null);
    compact.updated_at.push(plot.updated_at ? millis(plot.updated_at) : null);
    previousCreatedAt = createdAt;
  }
  return compact;
}

/**
 * The spec's plots back from the columns. Throws on a version it does not know and when a column's length
 * differs from the ids'.
 */
export function decodePlotListCompact(compact: PlotListCompact): Plot[] {
  if (compact.version !== PLOT_LIST_COMPACT_VERSION) throw new Error(`compact plot list: unknown version ${String(compact.version)}`);
  const count = compact.id.length;
  const uneven = COLUMNS.find((name) => compact[name].length !== count);
  if (uneven) throw new Error(`compact plot list: column ${uneven} has ${compact[uneven].length} values for ${count} plots`);
  const plots: Plot[] = new Array(count);
  let createdAt = 0;
  // Every column was checked above to hold `count` values, so each `[i]!` below is in range.
  for (let i = 0; i < count; i += 1) {
    createdAt += compact.created_at[i]!;
    const id = compact.id[i] ?? plotIdFor(createdAt, compact.x[i]!, compact.y[i]!);
    const updatedAt = compact.updated_at[i]!;
    plots[i] = {
      id,
      zone: compact.zone[i]!,
      tier: compact.tier[i]!,
      x: compact.x[i]!,
      y: compact.y[i]!,
      display_name: compact.display_name[i]!,
      message: compact.message[i]!,
      link: compact.link[i]!,
      avatar_url: compact.avatar_url[i] ?? defaultAvatarUrl(id),
      created_at: iso(createdAt),
      flagged: compact.flagged[i] === 1,
      reviewed: compact.reviewed[i] === 1,
      region_name: compact.region_name[i]!,
      updated_at: updatedAt === null ? null : iso(updatedAt),
    };
  }
  return plots;
}
