import { z } from 'zod';

/**
 * A plot link's health as the background checker last saw it. `unchecked`: never checked yet (or the link
 * changed since); `failing`: the last check failed; `unreachable`: failing for N checks over at least days
 * (the owner is told). Never shown on the public page: for the owner page and the admin.
 */
export const linkHealthStatusSchema = z.enum(['unchecked', 'ok', 'failing', 'unreachable']);
export type LinkHealthStatus = z.infer<typeof linkHealthStatusSchema>;

export const linkHealthSchema = z
  .object({
    status: linkHealthStatusSchema,
    lastOkAt: z.string().nullable(),
    lastCheckedAt: z.string().nullable(),
    /** Why the last check failed, in plain words ('HTTP 404', 'timed out after 10 s', 'refused: private address'). */
    lastError: z.string().nullable(),
  })
  .meta({ id: 'LinkHealth' });
export type LinkHealth = z.infer<typeof linkHealthSchema>;

/** One row of the admin's link-health list (`GET /api/admin/link-health`). */
export const adminLinkHealthEntrySchema = linkHealthSchema
  .extend({
    plotId: z.uuid(),
    displayName: z.string(),
    link: z.string(),
    consecutiveFailures: z.number().int(),
    failingSince: z.string().nullable(),
  })
  .meta({ id: 'AdminLinkHealthEntry' });
export type AdminLinkHealthEntry = z.infer<typeof adminLinkHealthEntrySchema>;

export const adminLinkHealthListSchema = z.object({ links: z.array(adminLinkHealthEntrySchema) }).meta({ id: 'AdminLinkHealthList' });
export type AdminLinkHealthList = z.infer<typeof adminLinkHealthListSchema>;

export const adminLinkHealthQuerySchema = z.object({
  status: z.enum(['all', 'failing', 'unreachable']).default('all'),
  limit: z.coerce.number().int().min(1).max(500).default(200),
});
