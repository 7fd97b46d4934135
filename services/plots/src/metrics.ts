import { Counter, type Registry } from 'prom-client';

export function createPlotsMetrics(registry: Registry) {
  return {
    plotsClaimed: new Counter({ name: 'plots_claimed_total', help: 'Plots claimed, by tier', labelNames: ['tier'], registers: [registry] }),
  };
}
