import type { PlotStats } from '@pixel-atlas/contracts/stats';

const CHART_HEIGHT = 80;
const BAR_WIDTH = 8;
const GAP = 2;

const dayFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** '2026-11-28' as 'Nov 28' (days are UTC dates). */
function shortDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : dayFormat.format(date);
}

/**
 * The last 30 days as small pixel bars: views (sky) with outbound clicks (gold) drawn over them. The numbers are also
 * in a table for screen readers and for anyone who prefers figures.
 */
export function StatsChart({ stats }: { stats: PlotStats }) {
  const days = stats.days;
  const max = Math.max(1, ...days.map((d) => Math.max(d.views, d.clicks, d.profileOpens)));
  const width = days.length * (BAR_WIDTH + GAP);
  const total = days.reduce(
    (sum, d) => ({
      views: sum.views + d.views,
      profileOpens: sum.profileOpens + d.profileOpens,
      clicks: sum.clicks + d.clicks,
      badgeViews: sum.badgeViews + d.badgeViews,
    }),
    { views: 0, profileOpens: 0, clicks: 0, badgeViews: 0 },
  );
  const height = (value: number) => Math.round((value / max) * CHART_HEIGHT);
  const first = days[0]?.day;
  const last = days.at(-1)?.day;
  return (
    <div className="grid gap-3">
      <p className="text-sm text-ink" data-testid="stats-totals">
        Last {days.length} days: <strong>{total.views}</strong> page views, <strong>{total.profileOpens}</strong> profile opens on the map,{' '}
        <strong>{total.clicks}</strong> visits to your link, <strong>{total.badgeViews}</strong> badge views.
      </p>
      {/* Axes in HTML around the stretched SVG (text inside it would stretch too): counts up the side, days along the foot. */}
      <figure className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-2 gap-y-1" data-testid="stats-chart">
        <div className="flex flex-col justify-between text-right text-xs text-ink-muted tabular-nums" data-testid="stats-y-axis">
          <span aria-hidden="true">{max}</span>
          <span className="[writing-mode:vertical-rl] rotate-180 self-end">Visits per day</span>
          <span aria-hidden="true">0</span>
        </div>
        <svg
          role="img"
          aria-label={`Daily page views and link visits over the last ${days.length} days`}
          viewBox={`0 0 ${width} ${CHART_HEIGHT}`}
          preserveAspectRatio="none"
          className="h-24 w-full border-2 border-border bg-night"
          shapeRendering="crispEdges"
        >
          {days.map((day, index) => (
            <g key={day.day}>
              <rect
                x={index * (BAR_WIDTH + GAP)}
                y={CHART_HEIGHT - height(day.views)}
                width={BAR_WIDTH}
                height={height(day.views)}
                className="fill-sky"
              />
              <rect
                x={index * (BAR_WIDTH + GAP) + 2}
                y={CHART_HEIGHT - height(day.clicks)}
                width={BAR_WIDTH - 4}
                height={height(day.clicks)}
                className="fill-gold"
              />
            </g>
          ))}
        </svg>
        <figcaption className="col-start-2 flex justify-between gap-2 text-xs text-ink-muted tabular-nums" data-testid="stats-x-axis">
          <span>{first ? shortDay(first) : ''}</span>
          <span>Day</span>
          <span>{last ? shortDay(last) : ''}</span>
        </figcaption>
      </figure>
      <p className="text-xs text-ink-muted">
        <span className="text-sky">■</span> page views · <span className="text-gold">■</span> link visits. Counts only: we keep nothing
        about your visitors, and obvious robots are not counted.
      </p>
      {/* sr-only on the wrapper: a table sizes to its cells whatever width it is given, so on the table itself it
          widened the page by the table's width on a phone. */}
      <div className="sr-only">
        <table>
          <caption>Daily counts</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Page views</th>
              <th scope="col">Profile opens</th>
              <th scope="col">Link visits</th>
              <th scope="col">Badge views</th>
            </tr>
          </thead>
          <tbody>
            {days.map((day) => (
              <tr key={day.day}>
                <th scope="row">{day.day}</th>
                <td>{day.views}</td>
                <td>{day.profileOpens}</td>
                <td>{day.clicks}</td>
                <td>{day.badgeViews}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
