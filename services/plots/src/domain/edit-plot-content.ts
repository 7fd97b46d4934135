import { EDIT_UNDER_REVIEW_WARNING, type editPlotContentRequestSchema } from '@pixel-atlas/contracts/manage';
import type { Plot as PlotDto } from '@pixel-atlas/contracts/plots';
import { AppError } from '@pixel-atlas/service-kit/errors';
import type { EventBus } from '@pixel-atlas/service-kit/nats';
import { enqueueEvent } from '@pixel-atlas/service-kit/outbox';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import { SCHEMA, type PrismaClient } from '../db.ts';
import { plotEventSnapshot, toPlotDto } from '../plot-dto.ts';
import { plotForManageToken } from './manage-token.ts';
import { updatePlotContent, type PlotChange } from './plot-updated.ts';
import { screenClaimContent, type ScreenedBy, type ScreenWordsSource } from './screen-claim-content.ts';

export type EditPlotContentInput = z.output<typeof editPlotContentRequestSchema>;

export const PLOT_UNDER_REVIEW_MESSAGE = 'Your plot is waiting for review. You can change it once it has been approved.';

export interface EditPlotContentOptions {
  db: PrismaClient;
  bus: EventBus;
  token: string;
  edit: EditPlotContentInput;
  requestId?: string;
  log: FastifyBaseLogger;
  screenTimeoutMs: number;
  /** This replica's copy of moderation's word list; without it moderation is asked. */
  screenWords?: ScreenWordsSource;
}

export interface EditPlotContentResult {
  plot: PlotDto;
  status: 'applied' | 'under_review' | 'unchanged';
  warning?: string;
  screenedBy?: ScreenedBy;
}

/**
 * PATCH /api/manage/:token. The owner's new message and link go through the claim's screen (moderation over
 * NATS, the floor list when it does not answer). Clean: applied at once with `plots.plot.updated`. A hit: the
 * edit is kept as the plot's one pending edit (a newer one supersedes it) and `plots.edit.submitted` puts it in
 * front of an admin, while the plot keeps showing what it shows now. Name, tier and position are not editable.
 */
export async function editPlotContent(options: EditPlotContentOptions): Promise<EditPlotContentResult> {
  const { db, edit } = options;
  const current = await plotForManageToken({ db, token: options.token });
  if (!current.visible) throw new AppError('CONFLICT', PLOT_UNDER_REVIEW_MESSAGE);
  const message = edit.message;
  const link = edit.link ?? null;
  const changed: PlotChange[] = [];
  if (message !== current.message) changed.push('message');
  if (link !== current.link) changed.push('link');
  if (!changed.length) {
    // Asking for what is already live withdraws a held edit: the owner changed their mind.
    await db.plotEdit.updateMany({
      where: { plotId: current.id, status: 'pending' },
      data: { status: 'superseded', decidedAt: new Date() },
    });
    return { plot: toPlotDto(current), status: 'unchanged' };
  }

  // The name was judged when the plot was claimed and cannot change: only what the owner wrote now is screened.
  const screening = await screenClaimContent({
    bus: options.bus,
    displayName: '',
    message,
    link,
    timeoutMs: options.screenTimeoutMs,
    log: options.log,
    words: options.screenWords,
  });

  return db.$transaction(async (tx) => {
    // One owner edit at a time per plot: the row lock orders concurrent edits, the newest wins.
    await tx.$executeRawUnsafe(`SELECT 1 FROM "${SCHEMA}"."plots" WHERE "id" = $1::uuid FOR UPDATE`, current.id);
    await tx.plotEdit.updateMany({
      where: { plotId: current.id, status: 'pending' },
      data: { status: 'superseded', decidedAt: new Date() },
    });
    if (screening.visible) {
      const plot = await updatePlotContent({ tx, plotId: current.id, data: { message, link }, changed, requestId: options.requestId });
      return { plot: toPlotDto(plot), status: 'applied' as const, screenedBy: screening.screenedBy };
    }
    const held = await tx.plotEdit.create({ data: { plotId: current.id, message, link, screenedWords: screening.screenedWords } });
    await enqueueEvent({
      tx,
      schema: SCHEMA,
      type: 'plots.edit.submitted',
      requestId: options.requestId,
      data: {
        ...plotEventSnapshot(current),
        editId: held.id,
        proposed: { message, link },
        screenedWords: screening.screenedWords,
      },
    });
    return {
      plot: toPlotDto(current),
      status: 'under_review' as const,
      warning: EDIT_UNDER_REVIEW_WARNING,
      screenedBy: screening.screenedBy,
    };
  });
}
