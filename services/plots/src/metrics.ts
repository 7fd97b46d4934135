import { Counter, type Registry } from 'prom-client';

export function createPlotsMetrics(registry: Registry) {
  return {
    plotsClaimed: new Counter({ name: 'plots_claimed_total', help: 'Plots claimed, by tier', labelNames: ['tier'], registers: [registry] }),
    claimsScreened: new Counter({
      name: 'plots_claims_screened_total',
      help: "New claims by who screened them (moderation, or the local floor list when moderation did not answer) and the outcome (published, held)",
      labelNames: ['screened_by', 'outcome'],
      registers: [registry],
    }),
    flags: new Counter({ name: 'plots_flags_total', help: 'Visitor flags: new, or repeated by the same visitor (counted once)', labelNames: ['outcome'], registers: [registry] }),
    moderationDecisions: new Counter({
      name: 'plots_moderation_decisions_total',
      help: "Moderation decisions applied to plots, by outcome (published, removed, or ignored as unknown / already removed)",
      labelNames: ['outcome'],
      registers: [registry],
    }),
  };
}
