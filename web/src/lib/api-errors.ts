/**
 * The error code of a failed apiRequest (`"<status>: <body>"` with a `{error:{code}}` body), or
 * undefined when the body carries none. Lets screens tell a taken tile from any other conflict.
 */
export function errorCode(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const match = /^\d{3}: ([\s\S]*)$/.exec(error.message);
  if (!match) return undefined;
  try {
    const code = (JSON.parse(match[1]) as { error?: { code?: unknown } } | null)?.error?.code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}
