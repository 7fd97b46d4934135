import type { PrismaClient } from '../db.ts';
import { hashManageToken, newManageToken, plotForManageToken } from './manage-token.ts';

/**
 * POST /api/manage/:token/rotate: the owner swaps their link for a new one (e.g. after sharing it by mistake).
 * The old token stops working in the same statement that stores the new hash; the new token is returned once.
 * Conditional on the old hash, so two rotations at once with the same token give one new link, not two.
 */
export async function rotateManageToken({ db, token }: { db: PrismaClient; token: string }): Promise<{ token: string; plotId: string }> {
  const plot = await plotForManageToken({ db, token });
  const fresh = newManageToken();
  const rotated = await db.plotManageToken.updateMany({
    where: { plotId: plot.id, tokenHash: hashManageToken(token) },
    data: { tokenHash: fresh.tokenHash, issuedAt: new Date() },
  });
  // Lost a race with another rotation: the token presented is no longer valid either.
  if (rotated.count !== 1) await plotForManageToken({ db, token });
  return { token: fresh.token, plotId: plot.id };
}
