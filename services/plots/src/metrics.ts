import { Counter, Gauge, type Registry } from 'prom-client';
import type { PrismaClient } from './db.ts';

export function createPlotsMetrics(registry: Registry, db: () => PrismaClient) {
  new Gauge({
    name: 'plots_links',
    help: 'Plot links by the health the checker last recorded (unchecked, ok, failing, unreachable)',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      const counts = await db()
        .linkCheck.groupBy({ by: ['status'], _count: { _all: true } })
        .catch(() => []);
      this.reset();
      for (const row of counts) this.set({ status: row.status }, row._count._all);
    },
  });
  return {
    linkChecks: new Counter({
      name: 'plots_link_checks_total',
      help: 'Plot links checked, by the status recorded (ok, failing, unreachable)',
      labelNames: ['status'],
      registers: [registry],
    }),
    linksMarkedUnreachable: new Counter({
      name: 'plots_links_marked_unreachable_total',
      help: 'Links newly marked unreachable (the owner is told)',
      registers: [registry],
    }),
    plotsClaimed: new Counter({ name: 'plots_claimed_total', help: 'Plots claimed, by tier', labelNames: ['tier'], registers: [registry] }),
    claimsScreened: new Counter({
      name: 'plots_claims_screened_total',
      help: "New claims by who screened them (moderation, or the local floor list when moderation did not answer) and the outcome (published, held)",
      labelNames: ['screened_by', 'outcome'],
      registers: [registry],
    }),
    flags: new Counter({ name: 'plots_flags_total', help: 'Visitor flags: new, or repeated by the same visitor (counted once)', labelNames: ['outcome'], registers: [registry] }),
    avatarDecodes: new Counter({
      name: 'plots_avatar_decodes_total',
      help: 'Avatar images decoded and re-encoded (the expensive step of a claim)',
      registers: [registry],
    }),
    avatarDecodesRefused: new Counter({
      name: 'plots_avatar_decodes_refused_total',
      help: 'Claims refused with 503 because every decode slot and queue place was taken',
      registers: [registry],
    }),
    moderationDecisions: new Counter({
      name: 'plots_moderation_decisions_total',
      help: "Moderation decisions applied to plots, by outcome (published, removed, or ignored as unknown / already removed)",
      labelNames: ['outcome'],
      registers: [registry],
    }),
  };
}
