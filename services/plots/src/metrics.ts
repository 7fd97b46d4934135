import type { MetricFactory } from '@pixel-atlas/service-kit/metrics';
import type { PrismaClient } from './db.ts';

/** The plots service's own metrics (`app.serviceMetrics`); the link gauge counts rows when Prometheus scrapes. */
export function plotsMetrics(m: MetricFactory, db: PrismaClient) {
  return {
    links: m.gauge({
      name: 'plots_links',
      help: 'Plot links by the health the checker last recorded (unchecked, ok, failing, unreachable)',
      labelNames: ['status'],
      async collect() {
        const counts = await db.linkCheck.groupBy({ by: ['status'], _count: { _all: true } }).catch(() => []);
        this.reset();
        for (const row of counts) this.set({ status: row.status }, row._count._all);
      },
    }),
    linkChecks: m.counter({
      name: 'plots_link_checks_total',
      help: 'Plot links checked, by the status recorded (ok, failing, unreachable)',
      labelNames: ['status'],
    }),
    linksMarkedUnreachable: m.counter({
      name: 'plots_links_marked_unreachable_total',
      help: 'Links newly marked unreachable (the owner is told)',
    }),
    plotsClaimed: m.counter({ name: 'plots_claimed_total', help: 'Plots claimed, by tier', labelNames: ['tier'] }),
    ownerLinkRecoveries: m.counter({
      name: 'plots_owner_link_recoveries_total',
      help: '"Lost your owner link?" requests by outcome (none: no plot with that address; sent; not-configured; failed; address-limited)',
      labelNames: ['outcome'],
    }),
    claimsScreened: m.counter({
      name: 'plots_claims_screened_total',
      help: 'New claims by who screened them (moderation, or the local floor list when moderation did not answer) and the outcome (published, held)',
      labelNames: ['screened_by', 'outcome'],
    }),
    flags: m.counter({
      name: 'plots_flags_total',
      help: 'Visitor flags: new, or repeated by the same visitor (counted once)',
      labelNames: ['outcome'],
    }),
    avatarDecodes: m.counter({
      name: 'plots_avatar_decodes_total',
      help: 'Avatar images decoded and re-encoded (the expensive step of a claim)',
    }),
    avatarDecodesRefused: m.counter({
      name: 'plots_avatar_decodes_refused_total',
      help: 'Claims refused with 503 because every decode slot and queue place was taken',
    }),
    moderationDecisions: m.counter({
      name: 'plots_moderation_decisions_total',
      help: 'Moderation decisions applied to plots, by outcome (published, removed, or ignored as unknown / already removed)',
      labelNames: ['outcome'],
    }),
    statBeacons: m.counter({
      name: 'plots_stat_beacons_total',
      help: "Stat beacons by kind (view, profile_open, click) and outcome (counted, repeat: the visitor was counted today, bot, unknown-plot, owner: from the owner's own browser)",
      labelNames: ['kind', 'outcome'],
    }),
    plotViews: m.counter({
      name: 'plots_plot_views_total',
      help: "Views in the gateway's batches (POST /internal/plot-views) by kind (view, badge_view) and outcome (as for stat beacons)",
      labelNames: ['kind', 'outcome'],
    }),
  };
}

export type PlotsMetrics = ReturnType<typeof plotsMetrics>;
