import type { QueryFunction } from '@tanstack/react-query';

/**
 * Spec section 7: every call carries cookies; a JSON content type is sent only with a body;
 * any non-OK response becomes Error(`${status}: ${bodyText || statusText}`).
 */
async function throwIfNotOk(response: Response): Promise<void> {
  if (response.ok) return;
  const bodyText = await response.text();
  throw new Error(`${response.status}: ${bodyText || response.statusText}`);
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export async function apiRequest(method: HttpMethod, url: string, body?: unknown): Promise<Response> {
  const hasBody = body !== undefined;
  const response = await fetch(url, {
    method,
    credentials: 'include',
    headers: hasBody ? { 'content-type': 'application/json' } : undefined,
    body: hasBody ? JSON.stringify(body) : undefined,
  });
  await throwIfNotOk(response);
  return response;
}

/** apiRequest plus JSON parsing; an empty body (204) yields null. */
export async function apiJson<T>(method: HttpMethod, url: string, body?: unknown): Promise<T> {
  const response = await apiRequest(method, url, body);
  const text = await response.text();
  return (text ? JSON.parse(text) : null) as T;
}

const STATUS_PREFIX = /^(\d{3}): ([\s\S]*)$/;

/** The HTTP status encoded in an apiRequest error, or undefined for network and other errors. */
export function errorStatus(error: unknown): number | undefined {
  if (!(error instanceof Error)) return undefined;
  const match = STATUS_PREFIX.exec(error.message);
  return match ? Number(match[1]) : undefined;
}

/**
 * The text to show a person for a failed call: the server's `{error:{message}}` when the body
 * carries one, otherwise the fallback (never a raw status line or HTML error page).
 */
export function errorMessageForDisplay(error: unknown, fallback: string): string {
  if (!(error instanceof Error)) return fallback;
  const match = STATUS_PREFIX.exec(error.message);
  if (!match) return fallback;
  try {
    const parsed: unknown = JSON.parse(match[2]);
    const message = (parsed as { error?: { message?: unknown } } | null)?.error?.message;
    return typeof message === 'string' && message.trim() ? message : fallback;
  } catch {
    return fallback;
  }
}

export type UnauthorizedBehavior = 'returnNull' | 'throw';

/**
 * The default loader: fetches queryKey[0] as a URL and parses JSON. It deliberately ignores the abort
 * signal: consuming it makes TanStack cancel and re-send a request whenever its last observer remounts.
 */
export function getQueryFn<T>(options: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey }) => {
    const response = await fetch(String(queryKey[0]), { credentials: 'include' });
    if (options.on401 === 'returnNull' && response.status === 401) return null;
    await throwIfNotOk(response);
    return (await response.json()) as T;
  };
}
