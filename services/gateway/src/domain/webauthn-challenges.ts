import { createHash, randomBytes } from 'node:crypto';
import { sign, unsign } from '@fastify/cookie';
import type { PrismaClient } from '../db.ts';

/**
 * WebAuthn challenges are signed rather than stored: asking for one writes nothing, so a flood of option requests costs
 * no rows. Each names its purpose, whom it is for and when it expires; answering one records it, and a second answer
 * with the same challenge is refused.
 */
export const CHALLENGE_TTL_MS = 5 * 60_000;
const PREFIX = 'challenge1';

export type ChallengePurpose = 'sign-in' | 'register';

export function makeChallenge(options: { secret: Buffer; purpose: ChallengePurpose; subject: string; now?: Date }): string {
  const expiresAt = (options.now ?? new Date()).getTime() + CHALLENGE_TTL_MS;
  const value = [
    PREFIX,
    options.purpose,
    Buffer.from(options.subject).toString('base64url'),
    expiresAt,
    randomBytes(16).toString('base64url'),
  ];
  return sign(value.join('.'), options.secret.toString('hex'));
}

export type ChallengeOutcome = 'ok' | 'expired' | 'used' | 'invalid';

/**
 * Checks a challenge as it came back in the browser's clientDataJSON (base64url of what makeChallenge gave) and uses it
 * up. Only the first use of a valid, unexpired challenge for this purpose and subject is 'ok'.
 */
export async function consumeChallenge(options: {
  db: PrismaClient;
  secret: Buffer;
  challenge: string;
  purpose: ChallengePurpose;
  subject: string;
  now?: Date;
}): Promise<ChallengeOutcome> {
  const now = options.now ?? new Date();
  const token = Buffer.from(options.challenge, 'base64url').toString('utf8');
  const { valid, value } = unsign(token, options.secret.toString('hex'));
  if (!valid || !value) return 'invalid';
  const [prefix, purpose, subject, expiresAt] = value.split('.');
  if (prefix !== PREFIX || purpose !== options.purpose || subject !== Buffer.from(options.subject).toString('base64url')) return 'invalid';
  if (!(Number(expiresAt) > now.getTime())) return 'expired';
  const { count } = await options.db.webauthnUsedChallenge.createMany({
    data: [{ challenge: createHash('sha256').update(token).digest('hex'), expiresAt: new Date(Number(expiresAt)) }],
    skipDuplicates: true,
  });
  return count === 1 ? 'ok' : 'used';
}

/** Used challenges past their expiry can be forgotten: they would be refused as expired anyway. */
export async function pruneUsedChallenges(options: { db: PrismaClient; now?: Date }): Promise<number> {
  const { count } = await options.db.webauthnUsedChallenge.deleteMany({ where: { expiresAt: { lt: options.now ?? new Date() } } });
  return count;
}
