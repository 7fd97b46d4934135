import { generateRegistrationOptions, verifyRegistrationResponse, type RegistrationResponseJSON } from '@simplewebauthn/server';
import { AppError } from '@pixel-atlas/service-kit/errors';
import type { PrismaClient } from '../db.ts';
import { consumeChallenge, makeChallenge, type ChallengeOutcome } from './webauthn-challenges.ts';

/** Where passkeys are valid: the site's own host name (RP ID) and origin, both from PUBLIC_ORIGIN. */
export interface RelyingParty {
  id: string;
  name: string;
  origin: string;
}

export function relyingPartyOf(publicOrigin: string, siteName: string): RelyingParty {
  const url = new URL(publicOrigin);
  return { id: url.hostname, name: siteName, origin: url.origin };
}

/** The WebAuthn user handle: the admin's UUID as 16 bytes (no name or e-mail inside). */
export const userHandleOf = (userId: string) => Uint8Array.from(Buffer.from(userId.replaceAll('-', ''), 'hex'));

export const CHALLENGE_MESSAGES: Record<Exclude<ChallengeOutcome, 'ok'>, string> = {
  expired: 'This passkey request has expired. Please try again.',
  used: 'This passkey request was already used. Please try again.',
  invalid: 'This passkey request is not valid. Please try again.',
};

/** Options for the browser's navigator.credentials.create(): a discoverable passkey that verifies its user. */
export async function startPasskeyRegistration(options: {
  db: PrismaClient;
  secret: Buffer;
  rp: RelyingParty;
  user: { id: string; username: string };
  /** Whom the challenge is for: `user:<id>` for a signed-in admin, `link:<hash>` for a one-time link. */
  subject: string;
  now?: Date;
}) {
  const existing = await options.db.adminPasskey.findMany({ where: { userId: options.user.id }, select: { id: true, transports: true } });
  return generateRegistrationOptions({
    rpName: options.rp.name,
    rpID: options.rp.id,
    userName: options.user.username,
    userID: userHandleOf(options.user.id),
    challenge: makeChallenge({ secret: options.secret, purpose: 'register', subject: options.subject, now: options.now }),
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.id, transports: p.transports })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
}

/** Verifies the browser's answer to startPasskeyRegistration's options and stores the new passkey. */
export async function finishPasskeyRegistration(options: {
  db: PrismaClient;
  secret: Buffer;
  rp: RelyingParty;
  userId: string;
  subject: string;
  response: RegistrationResponseJSON;
  now?: Date;
  /** Runs after the answer is verified and before the passkey is stored (a one-time link is used up here). */
  beforeStore?: () => Promise<void>;
}): Promise<{ id: string; createdAt: Date }> {
  let outcome: ChallengeOutcome = 'invalid';
  const verification = await verifyRegistrationResponse({
    response: options.response,
    expectedChallenge: async (challenge) => {
      outcome = await consumeChallenge({ ...options, challenge, purpose: 'register' });
      return outcome === 'ok';
    },
    expectedOrigin: options.rp.origin,
    expectedRPID: options.rp.id,
    requireUserVerification: true,
  }).catch((error: unknown) => {
    if (outcome !== 'ok') throw new AppError('BAD_REQUEST', CHALLENGE_MESSAGES[outcome]);
    throw new AppError('BAD_REQUEST', 'This passkey could not be registered. Please try again.', { reason: (error as Error).message });
  });
  if (!verification.verified) throw new AppError('BAD_REQUEST', 'This passkey could not be registered. Please try again.');
  const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo;
  const taken = await options.db.adminPasskey.findUnique({ where: { id: credential.id }, select: { id: true } });
  if (taken) throw new AppError('CONFLICT', 'This passkey is already registered.');
  await options.beforeStore?.();
  return options.db.adminPasskey.create({
    data: {
      id: credential.id,
      userId: options.userId,
      publicKey: Buffer.from(credential.publicKey),
      counter: BigInt(credential.counter),
      transports: credential.transports ?? [],
      deviceType: credentialDeviceType,
      backedUp: credentialBackedUp,
    },
    select: { id: true, createdAt: true },
  });
}
