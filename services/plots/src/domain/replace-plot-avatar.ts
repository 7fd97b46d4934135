import type { Plot as PlotDto } from '@pixel-atlas/contracts/plots';
import { AppError } from '@pixel-atlas/service-kit/errors';
import type { AvatarDecodeSlots } from '../avatar-decode-slots.ts';
import { SCHEMA, type PrismaClient } from '../db.ts';
import { toPlotDto } from '../plot-dto.ts';
import { PLOT_UNDER_REVIEW_MESSAGE } from './edit-plot-content.ts';
import { plotForManageToken } from './manage-token.ts';
import { updatePlotContent } from './plot-updated.ts';
import { processAvatar } from './process-avatar.ts';

/**
 * PUT /api/manage/:token/avatar. The token is checked before anything is decoded; the image then goes through
 * the claim's own checks and re-encode (magic bytes, decoder, size and pixel bounds, the process's decode slots)
 * and replaces the stored avatar (a WebP). The avatar version goes up, so its URL changes and no cache keeps the old
 * one.
 */
export async function replacePlotAvatar(options: {
  db: PrismaClient;
  token: string;
  avatarDataUrl: string;
  maxInputPixels: number;
  decodeSlots?: AvatarDecodeSlots;
  requestId?: string;
}): Promise<PlotDto> {
  const { db } = options;
  const current = await plotForManageToken({ db, token: options.token });
  if (!current.visible) throw new AppError('CONFLICT', PLOT_UNDER_REVIEW_MESSAGE);
  const avatar = await processAvatar({
    dataUrl: options.avatarDataUrl,
    maxInputPixels: options.maxInputPixels,
    slots: options.decodeSlots,
  });
  const plot = await db.$transaction(async (tx) => {
    await tx.$executeRawUnsafe(`SELECT 1 FROM "${SCHEMA}"."plots" WHERE "id" = $1::uuid FOR UPDATE`, current.id);
    await tx.plotAvatar.upsert({
      where: { plotId: current.id },
      create: { plotId: current.id, png: new Uint8Array(avatar) },
      update: { png: new Uint8Array(avatar), createdAt: new Date() },
    });
    return updatePlotContent({
      tx,
      plotId: current.id,
      data: { avatarVersion: { increment: 1 } },
      changed: ['avatar'],
      requestId: options.requestId,
    });
  });
  return toPlotDto(plot);
}
