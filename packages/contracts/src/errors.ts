import { z } from 'zod';

/** Every error a service returns carries one of these codes; the code decides the HTTP status. */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  VALIDATION_FAILED: 400,
  INVALID_LOCATION: 400,
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  PAYMENT_REQUIRED: 402,
  FORBIDDEN: 403,
  CROSS_SITE_REQUEST: 403,
  NOT_FOUND: 404,
  MAP_NOT_AVAILABLE: 404,
  PLOT_NOT_FOUND: 404,
  SESSION_NOT_FOUND: 404,
  CONFLICT: 409,
  TILE_UNAVAILABLE: 409,
  SESSION_ALREADY_USED: 409,
  MAP_EXISTS: 409,
  ALREADY_DECIDED: 409,
  ALREADY_FLAGGED: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UPSTREAM_UNAVAILABLE: 502,
  NOT_READY: 503,
  TIMEOUT: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

export const errorBodySchema = z
  .object({
    error: z.object({
      code: z.enum(ERROR_CODES as [ErrorCode, ...ErrorCode[]]),
      message: z.string(),
      details: z.unknown().optional(),
    }),
  })
  .meta({ id: 'ErrorBody' });
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** Text shown for any 5xx: internals never leave a service. */
export const MASKED_INTERNAL_MESSAGE = 'Something went wrong on our side. Please try again.';
