import { z } from 'zod';
import { linkHealthSchema } from './link-health.ts';
import { claimPlotRequestSchema, plotSchema } from './plots.ts';
import { plotStatsSchema } from './stats.ts';

/**
 * The owner's private link is `/manage/<token>`: 32 random bytes in base64url (43 characters, 256 bits).
 * Only its sha256 is stored; the plaintext is shown once, when the plot is claimed or the link rotated.
 */
export const MANAGE_TOKEN_BYTES = 32;
export const MANAGE_TOKEN_LENGTH = 43;
export const MANAGE_PATH_PREFIX = '/manage/';

export function manageUrlPath(token: string): string {
  return `${MANAGE_PATH_PREFIX}${token}`;
}

/** Anything else is refused before any lookup (same answer as a wrong token). */
export const manageTokenParamsSchema = z.object({ token: z.string().max(200) });

/** An owner's edit: the claim's own rules for message and link (same schema, same bounds). An empty link removes it. */
export const editPlotContentRequestSchema = claimPlotRequestSchema
  .pick({ message: true, link: true })
  .meta({ id: 'EditPlotContentRequest' });
export type EditPlotContentRequest = z.input<typeof editPlotContentRequestSchema>;

/** A new avatar: the claim's data URL, cropped by the same editor in the browser, re-encoded the same way by plots. */
export const replaceAvatarRequestSchema = claimPlotRequestSchema.pick({ avatar_url: true }).meta({ id: 'ReplaceAvatarRequest' });
export type ReplaceAvatarRequest = z.input<typeof replaceAvatarRequestSchema>;

export const pendingEditSchema = z
  .object({ message: z.string(), link: z.string().nullable(), submittedAt: z.string() })
  .meta({ id: 'PendingPlotEdit' });

/** `GET /api/manage/:token`: what the owner sees. `plot.visible` false: the plot itself waits for review. */
export const managePageResponseSchema = z
  .object({
    plot: plotSchema.extend({ visible: z.boolean() }),
    pendingEdit: pendingEditSchema.nullable(),
    stats: plotStatsSchema,
    linkHealth: linkHealthSchema,
  })
  .meta({ id: 'ManagePage' });
export type ManagePage = z.infer<typeof managePageResponseSchema>;

export const EDIT_UNDER_REVIEW_WARNING =
  'Your changes are waiting for a quick review by our team. Your plot keeps showing its current message and link until they are approved.';

/** `PATCH /api/manage/:token`: `applied` (live now) or `under_review` (the screen held it; the plot is unchanged). */
export const editPlotContentResponseSchema = z
  .object({
    plot: plotSchema,
    status: z.enum(['applied', 'under_review']),
    warning: z.string().optional(),
  })
  .meta({ id: 'EditPlotContentResponse' });
export type EditPlotContentResponse = z.infer<typeof editPlotContentResponseSchema>;

export const replaceAvatarResponseSchema = z.object({ plot: plotSchema }).meta({ id: 'ReplaceAvatarResponse' });

/** `POST /api/manage/:token/rotate`: the new token (the old one stops working at once). Shown once. */
export const rotateManageTokenResponseSchema = z.object({ token: z.string() }).meta({ id: 'RotateManageTokenResponse' });

/** `POST /api/admin/plots/:id/revoke-manage-link`. */
export const revokeManageTokenResponseSchema = z
  .object({ plotId: z.uuid(), revoked: z.boolean() })
  .meta({ id: 'RevokeManageTokenResponse' });

export const INVALID_MANAGE_LINK_MESSAGE = 'This owner link is not valid. It may have been replaced by a newer one.';

/** "Lost your owner link?" (`/owner-link`): the address the plots were bought with. */
export const recoverOwnerLinksRequestSchema = z
  .object({ email: z.email({ error: 'Please enter a valid email address' }).max(254) })
  .meta({ id: 'RecoverOwnerLinksRequest' });
export type RecoverOwnerLinksRequest = z.input<typeof recoverOwnerLinksRequestSchema>;

/** The one answer, whether or not the address bought anything: the form never tells who bought. */
export const OWNER_LINK_RECOVERY_MESSAGE = 'If that address bought a plot, its owner link is on its way.';
export const recoverOwnerLinksResponseSchema = z
  .object({ message: z.literal(OWNER_LINK_RECOVERY_MESSAGE) })
  .meta({ id: 'RecoverOwnerLinksResponse' });

/** The SPA page of the form (linked from plot pages, the FAQ and the footer). */
export const OWNER_LINK_RECOVERY_PATH = '/owner-link';
