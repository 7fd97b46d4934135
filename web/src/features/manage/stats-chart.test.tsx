import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { StatsChart } from './stats-chart.tsx';

const days = Array.from({ length: 30 }, (_, index) => ({
  day: `2026-11-${String(index + 1).padStart(2, '0')}`,
  views: index === 29 ? 12 : 1,
  profileOpens: 0,
  clicks: index === 29 ? 3 : 0,
  badgeViews: index === 29 ? 5 : 0,
}));

describe('StatsChart', () => {
  it('labels its axes: visits per day from 0 to the busiest day, the first and last day along the foot', () => {
    render(<StatsChart stats={{ days }} />);
    const yAxis = screen.getByTestId('stats-y-axis');
    expect(yAxis.textContent).toContain('Visits per day');
    expect(within(yAxis).getByText('12')).toBeTruthy();
    expect(within(yAxis).getByText('0')).toBeTruthy();
    const xAxis = screen.getByTestId('stats-x-axis');
    expect(xAxis.textContent).toBe('Nov 1DayNov 30');
    expect(screen.getByTestId('stats-totals').textContent).toContain('41 page views');
  });
});
