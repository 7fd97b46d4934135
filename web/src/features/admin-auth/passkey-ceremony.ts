import {
  startAuthentication,
  startRegistration,
  WebAuthnError,
  type PublicKeyCredentialCreationOptionsJSON,
} from '@simplewebauthn/browser';
import type { AdminMe } from '@pixel-atlas/contracts/admin';
import { api, dataOf } from '../../api/client.ts';
import { errorMessageForDisplay, errorStatus } from '../../api/errors.ts';

/*
 * The browser half of passkeys: options from the gateway, the browser's own prompt, the signed answer back. The
 * gateway's options are typed by its schema, which leaves enum-like fields (transports, hints) open as strings; the
 * browser library takes them as they are.
 */

/** The browser's answer as a plain object (its extension results are an interface, the schema's type a record). */
const plain = <T extends { clientExtensionResults: object }>(
  answer: T,
): Omit<T, 'clientExtensionResults'> & { clientExtensionResults: Record<string, unknown> } => ({
  ...answer,
  clientExtensionResults: { ...(answer.clientExtensionResults as Record<string, unknown>) },
});

export async function signInWithPasskey(): Promise<AdminMe> {
  const options = await dataOf(api.POST('/api/admin/passkey-sign-in/options'));
  const response = plain(await startAuthentication({ optionsJSON: options }));
  return dataOf(api.POST('/api/admin/passkey-sign-in', { body: { response } }));
}

export async function addPasskey(): Promise<void> {
  const options = await dataOf(api.POST('/api/admin/passkeys/options'));
  const response = plain(await startRegistration({ optionsJSON: options as PublicKeyCredentialCreationOptionsJSON }));
  await dataOf(api.POST('/api/admin/passkeys', { body: { response } }));
}

/** Registers a passkey through a one-time link from `npm run admin:create`, which also signs the admin in. */
export async function addPasskeyThroughLink(token: string): Promise<AdminMe> {
  const { options } = await dataOf(api.POST('/api/admin/passkey-links/options', { body: { token } }));
  const response = plain(await startRegistration({ optionsJSON: options as PublicKeyCredentialCreationOptionsJSON }));
  return dataOf(api.POST('/api/admin/passkey-links', { body: { token, response } }));
}

/** Plain words for what went wrong: the browser's prompt (cancelled, unsupported) or the server's message. */
export function passkeyFailureMessage(error: unknown, fallback: string): string {
  if (error instanceof WebAuthnError) {
    if (error.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') return 'This passkey is already registered.';
    if (error.code === 'ERROR_CEREMONY_ABORTED') return 'The passkey request was cancelled.';
  }
  if (error instanceof Error && error.name === 'NotAllowedError') return 'The passkey request was cancelled or timed out.';
  if (error instanceof Error && /WebAuthn is not supported/i.test(error.message)) return 'This browser does not support passkeys.';
  return errorStatus(error) === undefined ? fallback : errorMessageForDisplay(error, fallback);
}
