import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { INVALID_MANAGE_LINK_MESSAGE, MANAGE_TOKEN_BYTES, MANAGE_TOKEN_LENGTH } from '@pixel-atlas/contracts/manage';
import { AppError } from '@pixel-atlas/service-kit/errors';
import type { PrismaClient, Tx } from '../db.ts';
import { PLOT_PUBLIC_SELECT } from '../plot-dto.ts';

const TOKEN_SHAPE = /^[A-Za-z0-9_-]+$/;

/** A fresh owner token (256 bits from the CSPRNG, base64url) and the only thing we keep of it: its sha256. */
export function newManageToken(): { token: string; tokenHash: string } {
  const token = randomBytes(MANAGE_TOKEN_BYTES).toString('base64url');
  return { token, tokenHash: hashManageToken(token) };
}

export function hashManageToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** What an owner's token opens: the plot as its owner may see it (hidden ones too), never a removed one. */
export const MANAGED_PLOT_SELECT = { ...PLOT_PUBLIC_SELECT, visible: true, removedAt: true, contentUpdatedAt: true } as const;
export type ManagedPlot = NonNullable<Awaited<ReturnType<typeof findPlotByManageToken>>>;

async function findPlotByManageToken(db: PrismaClient | Tx, tokenHash: string) {
  const row = await db.plotManageToken.findUnique({
    where: { tokenHash },
    select: { tokenHash: true, plot: { select: MANAGED_PLOT_SELECT } },
  });
  return row;
}

/**
 * The plot a token opens, or 404 with one message for every failure (malformed, unknown, rotated, revoked, plot
 * removed): the answer says nothing about which. The token is looked up by its hash (an index never sees the
 * plaintext), and the stored hash is compared with ours in constant time.
 */
export async function plotForManageToken({ db, token }: { db: PrismaClient | Tx; token: string }): Promise<ManagedPlot['plot']> {
  const refused = new AppError('NOT_FOUND', INVALID_MANAGE_LINK_MESSAGE);
  if (token.length !== MANAGE_TOKEN_LENGTH || !TOKEN_SHAPE.test(token)) throw refused;
  const tokenHash = hashManageToken(token);
  const row = await findPlotByManageToken(db, tokenHash);
  if (!row?.tokenHash || !timingSafeEqual(Buffer.from(row.tokenHash, 'hex'), Buffer.from(tokenHash, 'hex'))) throw refused;
  if (row.plot.removedAt) throw refused;
  return row.plot;
}
