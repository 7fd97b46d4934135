import { z } from 'zod';
import { plotPlacementShape } from './plot-placement.ts';

export const adminLoginRequestSchema = z
  .object({
    username: z.string().trim().min(1, 'Username is required').max(100),
    password: z.string().min(1, 'Password is required').max(200),
  })
  .meta({ id: 'AdminLoginRequest' });
export type AdminLoginRequest = z.infer<typeof adminLoginRequestSchema>;

export const adminMeResponseSchema = z.object({ username: z.string() }).meta({ id: 'AdminMe' });
export type AdminMe = z.infer<typeof adminMeResponseSchema>;

// Passkeys (WebAuthn). The options are what @simplewebauthn/server makes and @simplewebauthn/browser takes; the answers
// are what the browser library returns, with each field bounded (a real one is a few KB).
const base64url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*$/, 'must be base64url');
const credentialDescriptorSchema = z.object({
  id: z.string(),
  type: z.string(),
  transports: z.array(z.string()).optional(),
});
const userVerificationSchema = z.enum(['required', 'preferred', 'discouraged']);
/** The client extension inputs the server library may set (it sets credProps); none carries anything secret. */
const extensionsSchema = z.object({
  appid: z.string().optional(),
  credProps: z.boolean().optional(),
  hmacCreateSecret: z.boolean().optional(),
  minPinLength: z.boolean().optional(),
});

export const passkeySignInOptionsSchema = z
  .object({
    challenge: z.string(),
    timeout: z.number().optional(),
    rpId: z.string().optional(),
    allowCredentials: z.array(credentialDescriptorSchema).optional(),
    userVerification: userVerificationSchema.optional(),
    extensions: extensionsSchema.optional(),
  })
  .meta({ id: 'PasskeySignInOptions' });

export const passkeyRegistrationOptionsSchema = z
  .object({
    rp: z.object({ name: z.string(), id: z.string().optional() }),
    user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
    challenge: z.string(),
    pubKeyCredParams: z.array(z.object({ type: z.string(), alg: z.number() })),
    timeout: z.number().optional(),
    excludeCredentials: z.array(credentialDescriptorSchema).optional(),
    authenticatorSelection: z
      .object({
        authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
        residentKey: z.enum(['discouraged', 'preferred', 'required']).optional(),
        requireResidentKey: z.boolean().optional(),
        userVerification: userVerificationSchema.optional(),
      })
      .optional(),
    hints: z.array(z.string()).optional(),
    attestation: z.enum(['none', 'indirect', 'direct', 'enterprise']).optional(),
    extensions: extensionsSchema.optional(),
  })
  .meta({ id: 'PasskeyRegistrationOptions' });

const passkeyAnswerShape = {
  id: base64url(1400),
  rawId: base64url(1400),
  type: z.literal('public-key'),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
};

export const passkeyRegistrationResponseSchema = z
  .object({
    ...passkeyAnswerShape,
    response: z.object({
      clientDataJSON: base64url(4096),
      attestationObject: base64url(16_384),
      authenticatorData: base64url(8192).optional(),
      transports: z.array(z.string().max(32)).max(10).optional(),
      publicKeyAlgorithm: z.number().int().optional(),
      publicKey: base64url(8192).optional(),
    }),
  })
  .meta({ id: 'PasskeyRegistrationResponse' });

export const passkeySignInResponseSchema = z
  .object({
    ...passkeyAnswerShape,
    response: z.object({
      clientDataJSON: base64url(4096),
      authenticatorData: base64url(8192),
      // On Node 24 @simplewebauthn offers ML-DSA-44 first (2,420-byte signatures, 3,227 characters), and authenticators
      // take it (chromium's virtual one does); room up to ML-DSA-87 (4,627 bytes).
      signature: base64url(8192),
      userHandle: base64url(256).optional(),
    }),
  })
  .meta({ id: 'PasskeySignInResponse' });

export const passkeySignInRequestSchema = z.object({ response: passkeySignInResponseSchema }).meta({ id: 'PasskeySignInRequest' });
export const passkeyRegistrationRequestSchema = z
  .object({ response: passkeyRegistrationResponseSchema })
  .meta({ id: 'PasskeyRegistrationRequest' });

export const adminPasskeySchema = z
  .object({ id: z.string(), createdAt: z.string(), lastUsedAt: z.string().nullable() })
  .meta({ id: 'AdminPasskey' });
export const adminPasskeyListSchema = z.object({ passkeys: z.array(adminPasskeySchema) }).meta({ id: 'AdminPasskeyList' });

/** The token of a one-time registration link (`/admin#passkey=<token>`, made by `npm run admin:create -- <name> --passkey`). */
const passkeyLinkTokenSchema = z.string().min(20, 'This passkey link is not valid').max(100, 'This passkey link is not valid');
export const passkeyLinkOptionsRequestSchema = z.object({ token: passkeyLinkTokenSchema }).meta({ id: 'PasskeyLinkOptionsRequest' });
export const passkeyLinkOptionsResponseSchema = z
  .object({ username: z.string(), options: passkeyRegistrationOptionsSchema })
  .meta({ id: 'PasskeyLinkOptions' });
export const passkeyLinkRegistrationRequestSchema = z
  .object({ token: passkeyLinkTokenSchema, response: passkeyRegistrationResponseSchema })
  .meta({ id: 'PasskeyLinkRegistrationRequest' });

/** With `editId`: the decision is about that owner's edit held for review (the plot itself stays as it is). */
export const plotDecisionRequestSchema = z
  .object({ plotId: z.uuid('Unknown plot id'), editId: z.uuid('Unknown edit id').optional() })
  .meta({ id: 'PlotDecisionRequest' });
export const plotDecisionResponseSchema = z
  .object({ plotId: z.uuid(), decision: z.enum(['approved', 'rejected']), decidedAt: z.string() })
  .meta({ id: 'PlotDecisionResponse' });

export const flaggedPlotSchema = z
  .object({
    id: z.uuid(),
    display_name: z.string(),
    ...plotPlacementShape,
    message: z.string(),
    link: z.string().nullable(),
    created_at: z.string(),
    flag_count: z.number().int(),
    reasons: z.array(z.string()),
    source: z.enum(['screen', 'visitor', 'both']),
    /** `edit`: an owner's change held by the screen; message and link are the proposed ones, `current` what shows now. */
    kind: z.enum(['plot', 'edit']).optional(),
    edit_id: z.uuid().nullable().optional(),
    current: z.object({ message: z.string(), link: z.string().nullable() }).nullable().optional(),
  })
  .meta({ id: 'FlaggedPlot' });
export type FlaggedPlot = z.infer<typeof flaggedPlotSchema>;
export const flaggedPlotListSchema = z.array(flaggedPlotSchema).meta({ id: 'FlaggedPlotList' });

/** One moderation decision as the audit log keeps it: who, when, what, and the review the admin saw. */
export const moderationAuditEntrySchema = z
  .object({
    id: z.uuid(),
    plotId: z.uuid(),
    decision: z.enum(['approved', 'rejected']),
    admin: z.string(),
    decidedAt: z.string(),
    snapshot: flaggedPlotSchema,
    /** The owner e-mail for this decision, when the buyer left an address. */
    notification: z
      .object({ status: z.enum(['pending', 'sent', 'logged', 'failed']), attempts: z.number().int(), lastError: z.string().nullable() })
      .nullable(),
  })
  .meta({ id: 'ModerationAuditEntry' });
export type ModerationAuditEntry = z.infer<typeof moderationAuditEntrySchema>;
export const moderationAuditQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) });
export const moderationAuditListSchema = z.object({ entries: z.array(moderationAuditEntrySchema) }).meta({ id: 'ModerationAuditList' });

/** Internal headers the gateway sets after checking a session; services trust them only with the internal token. */
export const INTERNAL_HEADERS = {
  token: 'x-internal-token',
  admin: 'x-admin-user',
  requestId: 'x-request-id',
  clientIp: 'x-client-ip',
} as const;
