import { describe, expect, it, vi } from 'vitest';
import { apiJson, apiRequest, errorMessageForDisplay, errorStatus, getQueryFn } from './api.ts';
import { createQueryClient } from './query-client.ts';

function stubFetch(response: Response) {
  const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => response);
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('apiRequest', () => {
  it('sends JSON with a JSON content type and cookies when there is a body', async () => {
    const fetchMock = stubFetch(new Response('{}', { status: 201 }));

    await apiRequest('POST', '/api/contact', { name: 'Ada' });

    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/api/contact');
    expect(init?.method).toBe('POST');
    expect(init?.credentials).toBe('include');
    expect(init?.headers).toEqual({ 'content-type': 'application/json' });
    expect(init?.body).toBe('{"name":"Ada"}');
  });

  it('sends no content type and no body when there is no body', async () => {
    const fetchMock = stubFetch(new Response(null, { status: 204 }));

    await apiRequest('DELETE', '/api/admin/map-layout');

    const [, init] = fetchMock.mock.calls[0];
    expect(init?.credentials).toBe('include');
    expect(init?.headers).toBeUndefined();
    expect(init?.body).toBeUndefined();
  });

  it('throws "<status>: <body text>" for a non-OK response', async () => {
    stubFetch(new Response('{"error":{"code":"TILE_UNAVAILABLE","message":"Taken"}}', { status: 409, statusText: 'Conflict' }));

    await expect(apiRequest('POST', '/api/claim-plot', {})).rejects.toThrow(
      '409: {"error":{"code":"TILE_UNAVAILABLE","message":"Taken"}}',
    );
  });

  it('falls back to the status text when the error body is empty', async () => {
    stubFetch(new Response('', { status: 503, statusText: 'Service Unavailable' }));

    await expect(apiRequest('GET', '/api/plots')).rejects.toThrow('503: Service Unavailable');
  });
});

describe('apiJson', () => {
  it('parses the JSON reply and treats an empty reply as null', async () => {
    stubFetch(new Response('{"id":"c1"}', { status: 201 }));
    await expect(apiJson('POST', '/api/contact', {})).resolves.toEqual({ id: 'c1' });

    stubFetch(new Response(null, { status: 204 }));
    await expect(apiJson('POST', '/api/admin/logout')).resolves.toBeNull();
  });
});

describe('errorMessageForDisplay and errorStatus', () => {
  it("pulls the server's error message out of a wrapper error", () => {
    const error = new Error('401: {"error":{"code":"INVALID_CREDENTIALS","message":"Invalid username or password"}}');
    expect(errorMessageForDisplay(error, 'fallback')).toBe('Invalid username or password');
    expect(errorStatus(error)).toBe(401);
  });

  it('uses the fallback for bodies without a message, HTML pages and network errors', () => {
    expect(errorMessageForDisplay(new Error('502: <html>Bad gateway</html>'), 'Try again')).toBe('Try again');
    expect(errorMessageForDisplay(new Error('400: {"error":{}}'), 'Try again')).toBe('Try again');
    expect(errorMessageForDisplay(new TypeError('Failed to fetch'), 'Try again')).toBe('Try again');
    expect(errorMessageForDisplay('not an error', 'Try again')).toBe('Try again');
    expect(errorStatus(new TypeError('Failed to fetch'))).toBeUndefined();
  });
});

describe('getQueryFn', () => {
  const context = (url: string) => ({ queryKey: [url], signal: new AbortController().signal }) as never;

  it('fetches the first query key element as the URL, with cookies', async () => {
    const fetchMock = stubFetch(new Response('[{"id":1}]', { status: 200 }));

    await expect(getQueryFn({ on401: 'throw' })(context('/api/plots'))).resolves.toEqual([{ id: 1 }]);
    expect(fetchMock.mock.calls[0][0]).toBe('/api/plots');
    expect(fetchMock.mock.calls[0][1]?.credentials).toBe('include');
  });

  it('returns null on 401 when asked to', async () => {
    stubFetch(new Response('{"error":{"message":"Sign in"}}', { status: 401 }));
    await expect(getQueryFn({ on401: 'returnNull' })(context('/api/admin/me'))).resolves.toBeNull();
  });

  it('throws on 401 by default', async () => {
    stubFetch(new Response('{"error":{"message":"Sign in"}}', { status: 401 }));
    await expect(getQueryFn({ on401: 'throw' })(context('/api/admin/me'))).rejects.toThrow('401: {"error":{"message":"Sign in"}}');
  });
});

describe('query client defaults', () => {
  it('never retries, never refetches on focus or interval, and keeps data fresh forever', () => {
    const { queries, mutations } = createQueryClient().getDefaultOptions();
    expect(queries?.retry).toBe(false);
    expect(queries?.refetchOnWindowFocus).toBe(false);
    expect(queries?.refetchInterval).toBe(false);
    expect(queries?.staleTime).toBe(Infinity);
    expect(mutations?.retry).toBe(false);
  });
});
