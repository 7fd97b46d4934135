import type { PlotStats } from '@pixel-atlas/contracts/stats';

const CHART_HEIGHT = 80;
const BAR_WIDTH = 8;
const GAP = 2;

/**
 * The last 30 days as small pixel bars: views (sky) with outbound clicks (gold) drawn over them. The numbers are also
 * in a table for screen readers and for anyone who prefers figures.
 */
export function StatsChart({ stats }: { stats: PlotStats }) {
  const days = stats.days;
  const max = Math.max(1, ...days.map((d) => Math.max(d.views, d.clicks, d.profileOpens)));
  const width = days.length * (BAR_WIDTH + GAP);
  const total = days.reduce(
    (sum, d) => ({ views: sum.views + d.views, profileOpens: sum.profileOpens + d.profileOpens, clicks: sum.clicks + d.clicks }),
    {
      views: 0,
      profileOpens: 0,
      clicks: 0,
    },
  );
  const height = (value: number) => Math.round((value / max) * CHART_HEIGHT);
  return (
    <div className="grid gap-3">
      <p className="text-sm text-ink" data-testid="stats-totals">
        Last {days.length} days: <strong>{total.views}</strong> page views, <strong>{total.profileOpens}</strong> profile opens on the map,{' '}
        <strong>{total.clicks}</strong> visits to your link.
      </p>
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
            </tr>
          </thead>
          <tbody>
            {days.map((day) => (
              <tr key={day.day}>
                <th scope="row">{day.day}</th>
                <td>{day.views}</td>
                <td>{day.profileOpens}</td>
                <td>{day.clicks}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
