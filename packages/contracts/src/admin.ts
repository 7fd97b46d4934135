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
