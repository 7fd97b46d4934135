/** How ./client.ts words a non-OK answer: `"<status>: <body text>"`. */
const STATUS_LINE = /^(\d{3}): ([\s\S]*)$/;

function statusLine(error: unknown): { status: number; body: string } | undefined {
  if (!(error instanceof Error)) return undefined;
  const match = STATUS_LINE.exec(error.message);
  return match?.[1] !== undefined && match[2] !== undefined ? { status: Number(match[1]), body: match[2] } : undefined;
}

/** A string field of the server's `{error:{…}}` body, or undefined when the body carries none (or is not JSON). */
function errorBodyField(error: unknown, field: 'code' | 'message'): string | undefined {
  const line = statusLine(error);
  if (!line) return undefined;
  try {
    const parsed: unknown = JSON.parse(line.body);
    const value = (parsed as { error?: Record<string, unknown> } | null)?.error?.[field];
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The HTTP status of a failed call, or undefined for network and other errors. */
export function errorStatus(error: unknown): number | undefined {
  return statusLine(error)?.status;
}

/** The server's error code (`{error:{code}}`): lets screens tell a taken tile from any other conflict. */
export function errorCode(error: unknown): string | undefined {
  return errorBodyField(error, 'code');
}

/**
 * The text to show a person for a failed call: the server's `{error:{message}}` when the body
 * carries one, otherwise the fallback (never a raw status line or HTML error page).
 */
export function errorMessageForDisplay(error: unknown, fallback: string): string {
  const message = errorBodyField(error, 'message');
  return message?.trim() ? message : fallback;
}
