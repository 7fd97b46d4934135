import { describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../lib/query-client.ts';
import { api, dataOf } from './client.ts';
import { errorCode, errorMessageForDisplay, errorStatus } from './errors.ts';
import { adminMeQuery } from './queries.ts';

function stubFetch(response: Response) {
  const fetchMock = vi.fn(async (_request: Request) => response);
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function sentRequest(fetchMock: ReturnType<typeof stubFetch>): Request {
  const request = fetchMock.mock.calls[0]?.[0];
  if (!request) throw new Error('no request was sent');
  return request;
}

describe('the API client', () => {
  it('sends JSON with a JSON content type and cookies when there is a body', async () => {
    const fetchMock = stubFetch(new Response('{"id":"c1"}', { status: 201 }));

    await expect(
      dataOf(api.POST('/api/contact', { body: { name: 'Ada', email: 'ada@example.com', subject: 'other', message: 'Hello there' } })),
    ).resolves.toEqual({
      id: 'c1',
    });

    expect(fetchMock).toHaveBeenCalledTimes(1);
    const request = sentRequest(fetchMock);
    expect(new URL(request.url).pathname).toBe('/api/contact');
    expect(request.method).toBe('POST');
    expect(request.credentials).toBe('include');
    expect(request.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(await request.text())).toEqual({ name: 'Ada', email: 'ada@example.com', subject: 'other', message: 'Hello there' });
  });

  it('sends no content type and no body when there is no body', async () => {
    const fetchMock = stubFetch(new Response(null, { status: 204 }));

    await api.POST('/api/admin/logout');

    const request = sentRequest(fetchMock);
    expect(request.credentials).toBe('include');
    expect(request.headers.get('content-type')).toBeNull();
    expect(request.body).toBeNull();
  });

  it('writes path parameters and the query into the URL, encoded', async () => {
    const fetchMock = stubFetch(new Response('{"available":true}', { status: 200 }));

    await api.GET('/api/position-available', { params: { query: { x: 3, y: 4, tier: 'basic' } } });
    expect(new URL(sentRequest(fetchMock).url).search).toBe('?x=3&y=4&tier=basic');

    const plotFetch = stubFetch(new Response('{}', { status: 200 }));
    await api.GET('/api/users/{username}/plots', { params: { path: { username: 'Ada Pixel/1' } } });
    expect(new URL(sentRequest(plotFetch).url).pathname).toBe('/api/users/Ada%20Pixel%2F1/plots');
  });

  it('throws "<status>: <body text>" for a non-OK response', async () => {
    stubFetch(new Response('{"error":{"code":"TILE_UNAVAILABLE","message":"Taken"}}', { status: 409, statusText: 'Conflict' }));

    await expect(api.POST('/api/flag-plot', { body: { plotId: 'p1' } })).rejects.toThrow(
      '409: {"error":{"code":"TILE_UNAVAILABLE","message":"Taken"}}',
    );
  });

  it('falls back to the status text when the error body is empty', async () => {
    stubFetch(new Response('', { status: 503, statusText: 'Service Unavailable' }));

    await expect(api.GET('/api/prices')).rejects.toThrow('503: Service Unavailable');
  });

  it('treats an empty success as no data, which a query may not hold', async () => {
    stubFetch(new Response(null, { status: 204, statusText: 'No Content' }));
    await expect(api.POST('/api/admin/logout')).resolves.toMatchObject({ data: undefined });

    stubFetch(new Response(null, { status: 204, statusText: 'No Content' }));
    await expect(dataOf(api.GET('/api/prices'))).rejects.toThrow('204: No Content');
  });
});

describe('errorMessageForDisplay, errorStatus and errorCode', () => {
  it("pulls the server's error message and code out of a failed call's error", () => {
    const error = new Error('401: {"error":{"code":"INVALID_CREDENTIALS","message":"Invalid username or password"}}');
    expect(errorMessageForDisplay(error, 'fallback')).toBe('Invalid username or password');
    expect(errorStatus(error)).toBe(401);
    expect(errorCode(error)).toBe('INVALID_CREDENTIALS');
  });

  it('uses the fallback for bodies without a message, HTML pages and network errors', () => {
    expect(errorMessageForDisplay(new Error('502: <html>Bad gateway</html>'), 'Try again')).toBe('Try again');
    expect(errorMessageForDisplay(new Error('400: {"error":{}}'), 'Try again')).toBe('Try again');
    expect(errorMessageForDisplay(new Error('400: {"error":{"message":"  "}}'), 'Try again')).toBe('Try again');
    expect(errorMessageForDisplay(new TypeError('Failed to fetch'), 'Try again')).toBe('Try again');
    expect(errorMessageForDisplay('not an error', 'Try again')).toBe('Try again');
    expect(errorStatus(new TypeError('Failed to fetch'))).toBeUndefined();
    expect(errorCode(new Error('502: <html>Bad gateway</html>'))).toBeUndefined();
  });
});

describe('the signed-in admin query', () => {
  it('is null on 401', async () => {
    stubFetch(new Response('{"error":{"message":"Sign in"}}', { status: 401 }));
    await expect(createQueryClient().fetchQuery(adminMeQuery())).resolves.toBeNull();
  });

  it('fails on any other error', async () => {
    stubFetch(new Response('{"error":{"message":"Down"}}', { status: 502 }));
    await expect(createQueryClient().fetchQuery(adminMeQuery())).rejects.toThrow('502: {"error":{"message":"Down"}}');
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
