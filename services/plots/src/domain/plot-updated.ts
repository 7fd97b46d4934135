import type { EventData } from '@pixel-atlas/contracts/events';
import { enqueueEvent } from '@pixel-atlas/service-kit/outbox';
import { SCHEMA, type Tx } from '../db.ts';
import { avatarUrl, plotEventSnapshot } from '../plot-dto.ts';
import { MANAGED_PLOT_SELECT, type ManagedPlot } from './manage-token.ts';

export type PlotChange = EventData<'plots.plot.updated'>['changed'][number];

/**
 * Writes the plot's new content and `plots.plot.updated` (its whole public state) in the caller's transaction:
 * every replica's list cache, open maps, the gateway's pages and the share card follow the event.
 */
export async function updatePlotContent(options: {
  tx: Tx;
  plotId: string;
  data: { message?: string; link?: string | null; avatarVersion?: { increment: 1 } };
  changed: PlotChange[];
  requestId?: string;
}): Promise<ManagedPlot['plot']> {
  const updatedAt = new Date();
  const plot = await options.tx.plot.update({
    where: { id: options.plotId },
    data: { ...options.data, contentUpdatedAt: updatedAt },
    select: MANAGED_PLOT_SELECT,
  });
  await enqueueEvent({
    tx: options.tx,
    schema: SCHEMA,
    type: 'plots.plot.updated',
    requestId: options.requestId,
    data: {
      ...plotEventSnapshot(plot),
      visible: plot.visible,
      avatarUrl: avatarUrl(plot.id, plot.avatarVersion),
      changed: options.changed,
      updatedAt: updatedAt.toISOString(),
    },
  });
  return plot;
}
