import { OWNER_COOKIE, isObviousBot } from '@pixel-atlas/contracts/stats';
import { clientKey, ipv6PrefixFromEnv } from '@pixel-atlas/service-kit/client-key';
import { defineMetrics } from '@pixel-atlas/service-kit/metrics';
import { PollingWorker } from '@pixel-atlas/service-kit/polling-worker';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ServiceCallFailed } from '../upstreams.ts';
import {
  PlotViewBatch,
  PlotViewsRejected,
  VISITOR_MAX,
  plotViewVisitor,
  plotViewsCall,
  readPlotViewsAnswer,
  type PlotViewEntry,
} from '../domain/plot-view-batch.ts';

declare module 'fastify' {
  interface FastifyInstance {
    plotViews: PlotViews;
  }
}

export interface PlotViews {
  /** Counts one load of a plot's page or badge: queued, sent to plots within a second. Never waits, never throws. */
  record(view: { request: FastifyRequest; plotId: string; kind: PlotViewEntry['kind'] }): void;
}

export interface PlotViewsOptions {
  /** A batch goes out this often (ms), or at once when `flushSize` entries wait. */
  flushIntervalMs?: number;
  flushSize?: number;
  /** Distinct entries kept while plots cannot take them; more are dropped (counted in a metric). */
  maxPending?: number;
  /** After failed sends wait up to this long (ms) between tries. */
  maxBackoffMs?: number;
}

/** The raw owner cookie, unless it is larger than any the plots service signs (then it proves nothing, and costs bytes). */
const OWNER_COOKIE_MAX = 4096;

/**
 * Views of server-rendered plot pages and badges, counted without a call to plots per view: each one goes into an
 * in-memory batch (obvious bots left out at once, identical entries merged) that one loop sends to plots'
 * `POST /internal/plot-views` every second, or as soon as `flushSize` entries wait. A send that fails keeps its entries
 * for the next try (the loop backs off); shutdown sends what is left once. A lost count is only a count: past
 * `maxPending` entries new views are dropped rather than memory spent.
 */
export const plotViewsPlugin = fp(
  async (app: FastifyInstance, opts: PlotViewsOptions) => {
    const flushSize = opts.flushSize ?? 500;
    const batch = new PlotViewBatch(opts.maxPending ?? 20_000);
    const ipv6Prefix = ipv6PrefixFromEnv();
    const metrics = defineMetrics(app.metrics, (m) => ({
      heard: m.counter({
        name: 'gateway_plot_views_heard_total',
        help: 'Plot page and badge views heard, by what became of them: queued, coalesced (already pending), bot, dropped (batch full)',
        labelNames: ['kind', 'outcome'] as const,
      }),
      pending: m.gauge({
        name: 'gateway_plot_views_pending',
        help: 'Distinct views waiting to be sent to plots',
        collect() {
          this.set(batch.size);
        },
      }),
      sends: m.counter({
        name: 'gateway_plot_views_sends_total',
        help: 'Batches sent to plots: ok, failed (kept for the next try) or rejected (a 4xx: dropped)',
        labelNames: ['result'] as const,
      }),
      sent: m.counter({ name: 'gateway_plot_views_sent_total', help: 'Views plots accepted in a batch' }),
      counted: m.counter({ name: 'gateway_plot_views_counted_total', help: 'Views plots counted (not a repeat, an owner or a bot)' }),
      lost: m.counter({
        name: 'gateway_plot_views_lost_total',
        help: 'Views given up: the batch was full after a failed send (full) or plots refused them (rejected)',
        labelNames: ['reason'] as const,
      }),
    }));

    let failing = false;
    let avoid: string | undefined;
    /** One batch to plots; returns how many entries it sent (0: nothing waited). Throws when it should be tried again. */
    async function flushOnce(): Promise<number> {
      if (!batch.size) return 0;
      const taken = batch.take();
      let replica: string | undefined;
      try {
        const call = await app.callService('plots', plotViewsCall(taken.body, avoid));
        replica = call.replica;
        const { counted } = await readPlotViewsAnswer(call.response);
        metrics.sends.inc({ result: 'ok' });
        metrics.sent.inc(taken.keys.length);
        metrics.counted.inc(counted);
        failing = false;
        avoid = undefined;
        return taken.keys.length;
      } catch (error) {
        if (error instanceof PlotViewsRejected) {
          metrics.sends.inc({ result: 'rejected' });
          metrics.lost.inc({ reason: 'rejected' }, taken.keys.length);
          app.log.error({ status: error.status, views: taken.keys.length }, 'plots refused a batch of views: dropped');
          return taken.keys.length;
        }
        metrics.sends.inc({ result: 'failed' });
        metrics.lost.inc({ reason: 'full' }, batch.restore(taken));
        failing = true;
        avoid = error instanceof ServiceCallFailed ? error.replica : replica;
        throw error;
      }
    }

    const worker = new PollingWorker({
      name: 'plot views',
      pollIntervalMs: opts.flushIntervalMs ?? 1000,
      maxBackoffMs: opts.maxBackoffMs ?? 30_000,
      waitBeforeFirstRound: true,
      log: app.log,
      tick: flushOnce,
      // Another round at once only while a whole batch waits; otherwise the next second gathers more.
      moreMayWait: () => batch.size >= flushSize,
    });

    const plotViews: PlotViews = {
      record({ request, plotId, kind }) {
        const userAgent = request.headers['user-agent'];
        if (isObviousBot(userAgent)) {
          metrics.heard.inc({ kind, outcome: 'bot' });
          return;
        }
        const ownerCookie = request.cookies?.[OWNER_COOKIE];
        const visitor = plotViewVisitor(clientKey(request.clientIp || request.ip, ipv6Prefix), userAgent!);
        const outcome = batch.add({
          plotId: plotId.toLowerCase(),
          kind,
          visitor,
          userAgent: userAgent!.slice(0, VISITOR_MAX),
          ...(ownerCookie && ownerCookie.length <= OWNER_COOKIE_MAX && { ownerCookie }),
        });
        metrics.heard.inc({ kind, outcome });
        // While plots fails the loop backs off; a full batch must not wake it into a retry storm.
        if (outcome === 'queued' && batch.size === flushSize && !failing) worker.kick();
      },
    };
    app.decorate('plotViews', plotViews);

    app.addHook('onReady', async () => worker.start());
    // After the server closed (every page that records a view has answered): one last try for what waits.
    app.addHook('onClose', async () => {
      await worker.stop();
      for (let rounds = 0; batch.size && rounds < 3; rounds++) {
        const sent = await flushOnce().catch((error: unknown) => {
          app.log.warn({ err: error, views: batch.size }, 'plot views: the last batch could not be sent at shutdown');
          return 0;
        });
        if (!sent) break;
      }
    });
  },
  { name: 'gateway-plot-views', dependencies: ['gateway-proxy', 'pixel-atlas-metrics'] },
);
