import { z } from 'zod';
import { GRID_SIZE } from './grid.ts';
import { plotPlacementShape } from './plot-placement.ts';
import { visibleText } from './text.ts';
import { tierSchema } from './tiers.ts';
import { DEFAULT_ZONE, zoneSchema } from './zones.ts';

/** ARCHITECTURE.md section 7: 140 everywhere, counter turns red above 130. */
export const DISPLAY_NAME_MIN = 2;
export const DISPLAY_NAME_MAX = 30;
export const MESSAGE_MAX = 140;
export const MESSAGE_WARN_ABOVE = 130;
export const AVATAR_MAX_BYTES = 1048576;
export const AVATAR_ACCEPT = { 'image/jpeg': ['.jpeg', '.jpg'], 'image/png': ['.png'], 'image/gif': ['.gif'] } as const;

/** A tile's column or row in a JSON body: a whole number inside the grid. */
export const tileIndexSchema = z
  .number()
  .int()
  .min(0)
  .max(GRID_SIZE - 1);

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const gridCoordinate = z.coerce
  .number()
  .int('Must be a whole number')
  .min(0)
  .max(GRID_SIZE - 1);

const INVALID_LINK = 'Please enter a valid http or https URL';
/**
 * A public web host: dot-separated labels of letters, digits and inner hyphens ending in a letter TLD (or an
 * xn-- one). The URL parser alone lets 'https://.', 'https://a..b.com' and 'https://-x.com' through.
 */
const PUBLIC_HOSTNAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/i;

export const LINK_CREDENTIALS_MESSAGE = "Links can't contain a user name or password";

/**
 * The part of a link between the scheme and the first '/', '?' or '#', as a reader sees it. A backslash does not end
 * it here although the URL parser treats it as '/': 'https://a.com\\@b.example' reads as a user name on b.example.
 */
function visibleAuthority(link: string): string {
  const rest = link
    .trim()
    .replace(/^[a-z][a-z0-9+.-]*:/i, '')
    .replace(/^[/\\]*/, '');
  return rest.split(/[/?#]/, 1)[0] ?? '';
}

export const httpLinkSchema = z
  .string()
  // First, on the raw text: the URL check drops tabs and line breaks ('https://exa\tmple.com' would pass as
  // example.com) and escapes spaces in a path. Whitespace inside a link is a typo, not what the buyer sells.
  .refine((link) => !/\s/.test(link.trim()), INVALID_LINK)
  // The URL parser percent-encodes a NUL or a bidi override in a path: the raw text would be stored and shown.
  .check(visibleText('Link'))
  // 'https://paypal.com@evil.example' shows one site and opens another: no user info, however it is written.
  .refine((link) => !visibleAuthority(link).includes('@'), LINK_CREDENTIALS_MESSAGE)
  // A backslash is never needed in a link, and parsers disagree about it ('https://a.com\\b.example').
  .refine((link) => !link.includes('\\'), INVALID_LINK)
  .url({ protocol: /^https?$/, hostname: PUBLIC_HOSTNAME, error: INVALID_LINK })
  .max(2048, 'Link must be at most 2048 characters');

export const claimPlotRequestSchema = z
  .object({
    display_name: z
      .string()
      .trim()
      .check(visibleText('Display name'))
      .min(DISPLAY_NAME_MIN, `Display name must be at least ${DISPLAY_NAME_MIN} characters`)
      .max(DISPLAY_NAME_MAX, `Display name must be at most ${DISPLAY_NAME_MAX} characters`),
    message: z
      .string()
      .trim()
      .check(visibleText('Message', { multiline: true }))
      .max(MESSAGE_MAX, `Message must be at most ${MESSAGE_MAX} characters`)
      .default(''),
    link: z.preprocess(emptyToUndefined, httpLinkSchema.optional()),
    zone: zoneSchema.default(DEFAULT_ZONE),
    x: tileIndexSchema,
    y: tileIndexSchema,
    stripeSessionId: z.string().min(1, 'A payment session is required').max(255),
    tier: tierSchema,
    avatar_url: z.string().min(1, 'Please upload and save an avatar for your plot.').max(1_500_000, 'Avatar is too large'),
    notification_email: z.preprocess(emptyToUndefined, z.email('Please enter a valid email address').max(254).optional()),
  })
  .meta({ id: 'ClaimPlotRequest' });
export type ClaimPlotRequest = z.input<typeof claimPlotRequestSchema>;

export const plotSchema = z
  .object({
    id: z.uuid(),
    ...plotPlacementShape,
    display_name: z.string(),
    message: z.string(),
    link: z.string().nullable(),
    avatar_url: z.string(),
    created_at: z.string(),
    flagged: z.boolean(),
    reviewed: z.boolean(),
    region_name: z.string().nullable().optional(),
    /** When the owner last changed the message, link or avatar; null: as claimed. */
    updated_at: z.string().nullable().optional(),
  })
  .meta({ id: 'Plot' });
export type Plot = z.infer<typeof plotSchema>;

export const plotListResponseSchema = z.array(plotSchema).meta({ id: 'PlotList' });
/** `format=compact` asks for the columnar list (plot-list-compact.ts); without it, the spec's shape. */
export const plotListQuerySchema = z.object({ format: z.enum(['compact']).optional() });

/** One shape for both the claim form and the /claim auto-claim. */
export const claimPlotResponseSchema = z
  .object({
    plot: plotSchema,
    warning: z.string().optional(),
    /** The owner's private link token (`/manage/<token>`), on the claim that created the plot only: shown once. */
    manage_token: z.string().optional(),
  })
  .meta({ id: 'ClaimPlotResponse' });
export type ClaimPlotResponse = z.infer<typeof claimPlotResponseSchema>;

export const positionAvailableQuerySchema = z.object({
  x: gridCoordinate,
  y: gridCoordinate,
  tier: tierSchema.optional(),
});
/**
 * Why a spot cannot be bought: `taken` by a visible plot (named in `overlaps`), `review` (a plot waiting for
 * moderation holds it: hidden, so never named), `held` (reserved while someone pays), `water`,
 * `out_of_grid`, `no_map`.
 */
export const positionUnavailableReasonSchema = z.enum(['water', 'taken', 'held', 'review', 'out_of_grid', 'no_map']);
export type PositionUnavailableReason = z.infer<typeof positionUnavailableReasonSchema>;

export const positionAvailableResponseSchema = z
  .object({
    available: z.boolean(),
    reason: positionUnavailableReasonSchema.optional(),
    /** With `taken`: the visible plot the footprint would overlap, so the buyer can be told whose it is. */
    overlaps: z.object({ id: z.uuid(), display_name: z.string() }).optional(),
  })
  .meta({ id: 'PositionAvailable' });
export type PositionAvailable = z.infer<typeof positionAvailableResponseSchema>;

/** Land nobody can buy right now although no visible plot stands there. */
export const reservedReasonSchema = z.enum(['held', 'review']);
export type ReservedReason = z.infer<typeof reservedReasonSchema>;

/**
 * A footprint drawn as reserved on the map: a checkout hold (`held`) or a plot under review (`review`).
 * Deliberately only where and why: never whose, which plot, or which session.
 */
export const reservedFootprintSchema = z
  .object({
    x: z.number().int().min(0),
    y: z.number().int().min(0),
    size: z.number().int().min(1),
    reason: reservedReasonSchema,
  })
  .meta({ id: 'ReservedFootprint' });
export type ReservedFootprint = z.infer<typeof reservedFootprintSchema>;
export const reservedFootprintListSchema = z.array(reservedFootprintSchema).meta({ id: 'ReservedFootprintList' });

export const plotIdParamsSchema = z.object({ id: z.uuid('Unknown plot id') });

export const flagPlotRequestSchema = z
  .object({
    plotId: z.uuid('Unknown plot id'),
    reason: z
      .string()
      .trim()
      .check(visibleText('Reason', { multiline: true }))
      .max(200)
      .optional(),
  })
  .meta({ id: 'FlagPlotRequest' });
export const flagPlotResponseSchema = z.object({ flagged: z.literal(true), plotId: z.uuid() }).meta({ id: 'FlagPlotResponse' });

export const userPlotsResponseSchema = z.object({ username: z.string(), plots: z.array(plotSchema) }).meta({ id: 'UserPlots' });

/**
 * GET /api/claim-plot/:sessionId: the plot a paid session claimed, as plots knows it the moment the claim commits (payments
 * learns it from an event a moment later). Whoever holds the session id is its buyer: /claim in another browser says
 * "this payment already claimed <name>" instead of offering a form for a spot the plot now stands on.
 */
export const sessionClaimResponseSchema = z
  .object({
    sessionId: z.string(),
    claimed: z.boolean().describe('The session bought a plot (it cannot claim another)'),
    plotId: z.uuid().nullable().describe('That plot, while it exists (null when unclaimed or removed)'),
    display_name: z.string().nullable().describe("That plot's display name, while it exists"),
  })
  .meta({ id: 'SessionClaim' });
export type SessionClaim = z.infer<typeof sessionClaimResponseSchema>;
