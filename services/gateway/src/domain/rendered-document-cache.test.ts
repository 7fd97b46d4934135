import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { RenderedDocumentCache, type DocumentDraft } from './rendered-document-cache.ts';

const page = (body: string, extra: Partial<DocumentDraft> = {}): DocumentDraft => ({
  status: 200,
  contentType: 'text/html; charset=utf-8',
  body,
  cacheControl: 'public, max-age=0',
  ...extra,
});

/** A build that waits until released, counting how often it ran. */
function gatedBuild(body: () => string) {
  const state = { builds: 0, release: () => {} };
  const build = async () => {
    state.builds += 1;
    await new Promise<void>((resolve) => (state.release = resolve));
    return page(body());
  };
  return { state, build };
}

const text = (doc: { representations: { identity: { bytes: Buffer } } }) => doc.representations.identity.bytes.toString();

/**
 * A cache (staleMs 1 s, on a clock the test moves) holding 'v1' of a page that asked for stale-while-rebuilding; then
 * the page's data changes to 'v2' and its event arrives: `changed.after(ms)` moves the clock that far past the event.
 */
async function builtThenChanged() {
  let clock = 0;
  const cache = new RenderedDocumentCache({ maxBytes: 1e6, maxAgeMs: 60_000, staleMs: 1000, now: () => clock });
  let version = 1;
  const { state, build } = gatedBuild(() => `v${version}`);
  const recipe = { tags: ['plots'], build, staleWhileRebuilding: true };
  const first = cache.get('k', recipe);
  await new Promise((r) => setImmediate(r));
  state.release();
  expect(text(await first)).toBe('v1');
  version = 2;
  cache.invalidate('plots');
  return { cache, state, build, recipe, changed: { after: (ms: number) => (clock += ms) } };
}

describe('the rendered-document cache', () => {
  it('builds a document once for many concurrent requests, and serves it from memory after', async () => {
    const cache = new RenderedDocumentCache({ maxBytes: 1e6, maxAgeMs: 60_000 });
    const { state, build } = gatedBuild(() => '<p>one</p>');
    const waiting = Array.from({ length: 20 }, () => cache.get('k', { tags: ['plots'], build }));
    await new Promise((r) => setImmediate(r));
    state.release();
    const docs = await Promise.all(waiting);
    expect(state.builds).toBe(1);
    expect(new Set(docs).size).toBe(1);
    expect(cache.peek('k')).toBe(docs[0]);
  });

  it('compresses once: br and gzip decode to the identity bytes, each coding with its own strong tag', async () => {
    const cache = new RenderedDocumentCache({ maxBytes: 1e6, maxAgeMs: 60_000 });
    const text = '<main>' + 'A plot and its neighbours. '.repeat(200) + '</main>';
    const doc = await cache.get('k', { tags: [], build: async () => page(text) });
    const { identity, br, gzip } = doc.representations;
    expect(identity.bytes.toString()).toBe(text);
    expect(brotliDecompressSync(br.bytes).toString()).toBe(text);
    expect(gunzipSync(gzip.bytes).toString()).toBe(text);
    expect(br.bytes.length).toBeLessThan(identity.bytes.length / 10);
    expect(br.contentEncoding).toBe('br');
    expect(gzip.contentEncoding).toBe('gzip');
    for (const etag of doc.etags) expect(etag).toMatch(/^"[\w-]+"$/);
    expect(new Set(doc.etags).size).toBe(3);
  });

  it('keeps an image as it is (one representation)', async () => {
    const cache = new RenderedDocumentCache({ maxBytes: 1e6, maxAgeMs: 60_000 });
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const doc = await cache.get('card', {
      tags: [],
      build: async () => page('', { body: png, contentType: 'image/png', compress: false }),
    });
    expect(doc.representations.br).toBe(doc.representations.identity);
    expect(doc.representations.br.bytes).toEqual(png);
    expect(doc.etags).toHaveLength(1);
  });

  it('rebuilds after an event of one of its tags, and not after an event of another', async () => {
    const cache = new RenderedDocumentCache({ maxBytes: 1e6, maxAgeMs: 60_000 });
    let version = 1;
    let builds = 0;
    const recipe = { tags: ['plots', 'plot:a'], build: async () => (builds++, page(`v${version}`)) };
    expect((await cache.get('k', recipe)).representations.identity.bytes.toString()).toBe('v1');
    cache.invalidate('plot:b');
    cache.invalidate('map');
    expect(cache.peek('k')).toBeDefined();
    version = 2;
    cache.invalidate('plot:a');
    expect(cache.peek('k')).toBeUndefined();
    expect((await cache.get('k', recipe)).representations.identity.bytes.toString()).toBe('v2');
    expect(builds).toBe(2);
  });

  it('does not serve a build an event overtook: every request waiting gets a build that began after the event', async () => {
    const cache = new RenderedDocumentCache({ maxBytes: 1e6, maxAgeMs: 60_000 });
    let version = 1;
    const { state, build } = gatedBuild(() => `v${version}`);
    const before = cache.get('k', { tags: ['plots'], build });
    await new Promise((r) => setImmediate(r));
    // The data changes and its event arrives while the first build still reads the old data.
    version = 2;
    cache.invalidate('plots');
    const after = cache.get('k', { tags: ['plots'], build });
    state.release();
    // The waiting requests see that build is stale and start another.
    while (state.builds < 2) await new Promise((r) => setTimeout(r, 1));
    state.release();
    const docs = await Promise.all([before, after]);
    expect(docs.map((d) => d.representations.identity.bytes.toString())).toEqual(['v2', 'v2']);
    expect(state.builds).toBe(2);
    expect(cache.peek('k')?.representations.identity.bytes.toString()).toBe('v2');
  });

  it('answers a copy that missed a change for staleMs after it while one rebuild runs; then only the rebuilt one', async () => {
    const { cache, state, build, recipe, changed } = await builtThenChanged();
    changed.after(999);
    // A document that did not ask for it (a versioned share card) is never answered stale.
    expect(cache.answerNow('k', { tags: ['plots'], build })).toBeUndefined();
    // A crowd keeps its answers from memory: the v1 copy, at once, however many ask; one rebuild starts.
    const crowd = await Promise.all(Array.from({ length: 20 }, () => cache.get('k', recipe)));
    expect(crowd.map(text)).toEqual(Array.from({ length: 20 }, () => 'v1'));
    expect(state.builds).toBe(2);
    // The owner who just saved waits for the rebuild, which began after the change.
    const owner = cache.get('k', recipe, { fresh: true });
    state.release();
    expect(text(await owner)).toBe('v2');
    expect(text(await cache.get('k', recipe))).toBe('v2');
    expect(state.builds).toBe(2);
  });

  it('does not answer a copy whose missed change is older than staleMs: the request waits for the rebuild', async () => {
    const { cache, state, recipe, changed } = await builtThenChanged();
    changed.after(1001);
    expect(cache.answerNow('k', recipe)).toBeUndefined();
    const late = cache.get('k', recipe);
    while (state.builds < 2) await new Promise((r) => setImmediate(r));
    state.release();
    expect(text(await late)).toBe('v2');
  });

  it('gives a failure kept for no time to the requests that waited for it, and builds again for the next', async () => {
    const cache = new RenderedDocumentCache({ maxBytes: 1e6, maxAgeMs: 60_000 });
    let builds = 0;
    const recipe = { tags: [], build: async () => (builds++, page('down', { status: 503, keepMs: 0 })) };
    const [a, b] = await Promise.all([cache.get('k', recipe), cache.get('k', recipe)]);
    expect(a).toBe(b);
    expect(builds).toBe(1);
    // Kept for no time: gone once the clock moves past the build (waited for, not slept on).
    while (cache.peek('k') !== undefined) await new Promise((r) => setImmediate(r));
    await cache.get('k', recipe);
    expect(builds).toBe(2);
  });

  it('is bounded by bytes: the least recently used go first', async () => {
    const cache = new RenderedDocumentCache({ maxBytes: 50_000, maxAgeMs: 60_000 });
    // Random-ish text that does not compress away, about 12 KB in all codings together.
    const noise = (seed: number) => Array.from({ length: 800 }, (_, i) => ((i * 7919 + seed * 104729) % 1000003).toString(36)).join('');
    for (let i = 0; i < 10; i += 1) await cache.get(`k${i}`, { tags: [], build: async () => page(noise(i)) });
    expect(cache.size).toBeLessThanOrEqual(50_000);
    expect(cache.peek('k9')).toBeDefined();
    expect(cache.peek('k0')).toBeUndefined();
  });
});
