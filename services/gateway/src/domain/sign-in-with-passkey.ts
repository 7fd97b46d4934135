import { generateAuthenticationOptions, verifyAuthenticationResponse, type AuthenticationResponseJSON } from '@simplewebauthn/server';
import { AppError } from '@pixel-atlas/service-kit/errors';
import type { PrismaClient } from '../db.ts';
import { createAdminSession } from './admin-sessions.ts';
import { CHALLENGE_MESSAGES, userHandleOf, type RelyingParty } from './register-admin-passkey.ts';
import { consumeChallenge, makeChallenge, type ChallengeOutcome } from './webauthn-challenges.ts';

const SIGN_IN_SUBJECT = 'any-admin';
export const PASSKEY_REFUSED_MESSAGE = 'This passkey was not accepted. Please try again or sign in with your password.';

/**
 * Options for navigator.credentials.get() with no username: the browser offers the site's discoverable passkeys. A
 * passkey cannot be guessed, so this path has no per-username throttle: a flood of wrong passwords never touches it.
 */
export async function startPasskeySignIn(options: { secret: Buffer; rp: RelyingParty; now?: Date }) {
  return generateAuthenticationOptions({
    rpID: options.rp.id,
    userVerification: 'required',
    challenge: makeChallenge({ secret: options.secret, purpose: 'sign-in', subject: SIGN_IN_SUBJECT, now: options.now }),
  });
}

/** Verifies a signed assertion against the stored public key, then opens a session for the passkey's admin. */
export async function signInWithPasskey(options: {
  db: PrismaClient;
  secret: Buffer;
  rp: RelyingParty;
  response: AuthenticationResponseJSON;
  clientIp: string;
  userAgent: string | null;
  now?: Date;
}): Promise<{ token: string; username: string }> {
  const { db, response } = options;
  const passkey = await db.adminPasskey.findUnique({ where: { id: response.id }, include: { user: true } });
  if (!passkey) throw new AppError('INVALID_CREDENTIALS', PASSKEY_REFUSED_MESSAGE);
  const handle = response.response.userHandle;
  if (handle && handle !== Buffer.from(userHandleOf(passkey.userId)).toString('base64url')) {
    throw new AppError('INVALID_CREDENTIALS', PASSKEY_REFUSED_MESSAGE);
  }
  let outcome: ChallengeOutcome = 'invalid';
  const verification = await verifyAuthenticationResponse({
    response,
    expectedChallenge: async (challenge) => {
      outcome = await consumeChallenge({ ...options, challenge, purpose: 'sign-in', subject: SIGN_IN_SUBJECT });
      return outcome === 'ok';
    },
    expectedOrigin: options.rp.origin,
    expectedRPID: options.rp.id,
    credential: {
      id: passkey.id,
      publicKey: Uint8Array.from(passkey.publicKey),
      counter: Number(passkey.counter),
      transports: passkey.transports,
    },
    requireUserVerification: true,
  }).catch((error: unknown) => {
    if (outcome !== 'ok') throw new AppError('BAD_REQUEST', CHALLENGE_MESSAGES[outcome]);
    throw new AppError('INVALID_CREDENTIALS', PASSKEY_REFUSED_MESSAGE, { reason: (error as Error).message });
  });
  if (!verification.verified) throw new AppError('INVALID_CREDENTIALS', PASSKEY_REFUSED_MESSAGE);
  await db.adminPasskey.update({
    where: { id: passkey.id },
    data: { counter: BigInt(verification.authenticationInfo.newCounter), lastUsedAt: options.now ?? new Date() },
  });
  const token = await createAdminSession({ db, userId: passkey.userId, clientIp: options.clientIp, userAgent: options.userAgent });
  return { token, username: passkey.user.username };
}
