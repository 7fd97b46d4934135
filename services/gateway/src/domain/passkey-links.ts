import { createHash, randomBytes } from 'node:crypto';
import { AppError } from '@pixel-atlas/service-kit/errors';
import type { PrismaClient } from '../db.ts';

/**
 * One-time links to register a passkey without signing in first (`npm run admin:create -- <name> --passkey`): the
 * token is in the link's fragment (#passkey=…), so it never reaches a server log; only its SHA-256 is stored.
 */
export const PASSKEY_LINK_TTL_MINUTES = 60;
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
const EXPIRED = 'This passkey link has expired or was already used. Ask for a new one with npm run admin:create.';

export async function createPasskeyLink(options: { db: PrismaClient; userId: string; now?: Date; ttlMinutes?: number }): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = options.now ?? new Date();
  const expiresAt = new Date(now.getTime() + (options.ttlMinutes ?? PASSKEY_LINK_TTL_MINUTES) * 60_000);
  await options.db.adminPasskeyLink.create({ data: { tokenHash: hashOf(token), userId: options.userId, expiresAt } });
  return token;
}

/** The admin a live link is for (the challenge of its registration is bound to the link, not to a session). */
export async function resolvePasskeyLink(options: { db: PrismaClient; token: string; now?: Date }) {
  const link = await options.db.adminPasskeyLink.findUnique({ where: { tokenHash: hashOf(options.token) }, include: { user: true } });
  if (!link || link.usedAt || link.expiresAt <= (options.now ?? new Date())) throw new AppError('NOT_FOUND', EXPIRED);
  return { linkSubject: `link:${link.tokenHash}`, user: { id: link.user.id, username: link.user.username } };
}

/** Marks the link used; false when another request used it first (or it expired meanwhile). */
export async function usePasskeyLink(options: { db: PrismaClient; token: string; now?: Date }): Promise<void> {
  const now = options.now ?? new Date();
  const { count } = await options.db.adminPasskeyLink.updateMany({
    where: { tokenHash: hashOf(options.token), usedAt: null, expiresAt: { gt: now } },
    data: { usedAt: now },
  });
  if (count !== 1) throw new AppError('NOT_FOUND', EXPIRED);
}
