// A crawler that runs no JavaScript (issue 26, goal 1): from `/`, following `<a href>` only, breadth first, same origin,
// every approved plot's page is within 3 links and carries its buyer's link with the operator's rel; a plot under
// review and a removed plot are never linked. The whole site runs as `npm start` runs it (every service a process).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@pixel-atlas/service-kit/testing';
import { ONE_PIXEL_PNG } from './support/claim.ts';
import { E2E_ADMIN, startStack, type Stack } from './support/stack.ts';

const REL = 'sponsored noopener';
const MAX_DEPTH = 3;
/** Plots written straight into one region, enough for several region pages (48 each). */
const REGION_PLOTS = 110;
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

let stack: Stack;
const approved = new Map<string, string>(); // plot id -> its link
let underReview: string;
let removed: string;

const sameOrigin = { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin', 'user-agent': BROWSER };

async function postJson(path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${stack.url}${path}`, {
    method: 'POST',
    headers: { ...sameOrigin, ...headers },
    body: JSON.stringify(body),
    redirect: 'manual',
  });
}

/** Test checkout, paid, then the claim, through the gateway as a buyer's browser does: the plot's id. */
async function buy(
  tile: { x: number; y: number },
  fields: { display_name: string; link: string },
): Promise<{ id: string; visible: boolean }> {
  const checkout = await postJson('/api/create-checkout-session', { tier: 'basic', ...tile });
  expect(checkout.status, await checkout.clone().text()).toBe(200);
  const { sessionId } = (await checkout.json()) as { sessionId: string };
  expect((await postJson(`/api/test-checkout/${sessionId}/pay`, {})).status).toBe(303);
  const claim = await postJson('/api/claim-plot', {
    ...fields,
    message: 'Found by a crawler.',
    zone: 'nexus',
    ...tile,
    stripeSessionId: sessionId,
    tier: 'basic',
    avatar_url: ONE_PIXEL_PNG,
  });
  expect(claim.status, await claim.clone().text()).toBe(201);
  const { plot } = (await claim.json()) as { plot: { id: string } };
  const shown = await fetch(`${stack.url}/api/plots/${plot.id}`);
  return { id: plot.id, visible: shown.status === 200 };
}

async function removeAsAdmin(plotId: string) {
  expect((await postJson('/api/flag-plot', { plotId, reason: 'spam' })).status).toBeLessThan(300);
  const login = await postJson('/api/admin/login', E2E_ADMIN);
  expect(login.status).toBe(200);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  // Moderation hears the flag as an event: the plot is in its queue a moment later.
  await eventually(async () => (await postJson('/api/admin/reject-plot', { plotId }, { cookie })).status === 200, 30_000);
  await eventually(async () => (await fetch(`${stack.url}/api/plots/${plotId}`)).status === 404, 30_000);
}

beforeAll(async () => {
  stack = await startStack({ OUTBOUND_LINK_REL: REL });
  const land = [...stack.land].map((key) => key.split(',').map(Number) as [number, number]);
  const regionOf = new Map(
    (await stack.db.query<{ x: number; y: number; zone_name: string }>('SELECT x, y, zone_name FROM map.map_tiles WHERE is_land')).map(
      (t) => [`${t.x},${t.y}`, t.zone_name],
    ),
  );
  // Bought through the site: three approved plots, one held for review ('test' is on the screen's word list), one removed.
  const spots = land.filter(([x, y]) => x % 9 === 4 && y % 9 === 4).map(([x, y]) => ({ x, y }));
  for (let i = 0; i < 3; i++) {
    const link = `https://crawled-${i}.example.com/`;
    const plot = await buy(spots[i]!, { display_name: `Crawled Maker ${i}`, link });
    expect(plot.visible).toBe(true);
    approved.set(plot.id, link);
  }
  const held = await buy(spots[3]!, { display_name: 'Crawl Test Plot', link: 'https://held.example.com/' });
  expect(held.visible).toBe(false);
  underReview = held.id;
  const gone = await buy(spots[4]!, { display_name: 'Soon Removed', link: 'https://removed.example.com/' });
  await removeAsAdmin(gone.id);
  removed = gone.id;

  // And a crowded region, written straight into the plots schema (as a long-running site has it): several pages of it.
  const used = new Set(spots.slice(0, 5).map((s) => `${s.x},${s.y}`));
  const region = regionOf.get(`${spots[0]!.x},${spots[0]!.y}`)!;
  const tiles = land.filter(([x, y]) => regionOf.get(`${x},${y}`) === region && !used.has(`${x},${y}`)).slice(0, REGION_PLOTS);
  const rows = await stack.db.query<{ id: string; link: string }>(
    `INSERT INTO plots.plots (id, zone, tier, x, y, size, display_name, message, link, stripe_session_id, region_name)
     SELECT gen_random_uuid(), 'creator', 'basic', t.x, t.y, 1, 'Region Maker ' || t.i, 'Listed in the directory.',
            'https://region-' || t.i || '.example.com/?a=1&b=2', 'cs_crawl_' || t.i, $3
       FROM unnest($1::int[], $2::int[]) WITH ORDINALITY AS t(x, y, i)
     RETURNING id, link`,
    [tiles.map(([x]) => x), tiles.map(([, y]) => y), region],
  );
  await stack.db.query(
    `INSERT INTO plots.footprints (id, x, y, size, kind, plot_id)
     SELECT gen_random_uuid(), x, y, 1, 'plot', id FROM plots.plots WHERE stripe_session_id LIKE 'cs_crawl_%'`,
  );
  for (const row of rows) approved.set(row.id, row.link);
});

afterAll(async () => {
  await stack?.stop();
});

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'", apos: "'" };
const decode = (value: string) => value.replace(/&(amp|lt|gt|quot|#39|#x27|apos);/g, (_, name: string) => ENTITIES[name]!);

/** Every `<a>` start tag's attributes (double, single or unquoted values), entities decoded. */
function anchors(html: string): Array<Record<string, string>> {
  return [...html.matchAll(/<a\s([^>]*)>/gi)].map((tag) => {
    const attributes: Record<string, string> = {};
    for (const match of tag[1]!.matchAll(/([a-z-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/gi))
      attributes[match[1]!.toLowerCase()] = decode(match[2] ?? match[3] ?? match[4] ?? '');
    return attributes;
  });
}

interface Crawled {
  depth: Map<string, number>;
  pages: Map<string, string>;
}

/** Breadth first from `/`, same origin, `<a href>` only: pages fetched to depth MAX_DEPTH, their links read up to MAX_DEPTH - 1. */
async function crawl(): Promise<Crawled> {
  const origin = new URL(stack.url).origin;
  const depth = new Map<string, number>([['/', 0]]);
  const pages = new Map<string, string>();
  let frontier = ['/'];
  for (let level = 0; level <= MAX_DEPTH && frontier.length; level++) {
    const next: string[] = [];
    for (let i = 0; i < frontier.length; i += 8) {
      await Promise.all(
        frontier.slice(i, i + 8).map(async (address) => {
          const response = await fetch(`${origin}${address}`, { headers: { 'user-agent': 'PixelAtlasCrawlTest/1.0 (bot)' } });
          const html = await response.text();
          if (!response.ok || !(response.headers.get('content-type') ?? '').includes('text/html')) return;
          pages.set(address, html);
          if (level === MAX_DEPTH) return;
          for (const { href } of anchors(html)) {
            if (!href) continue;
            const url = new URL(href, `${origin}${address}`);
            if (url.origin !== origin) continue;
            const target = url.pathname + url.search;
            if (depth.has(target)) continue;
            depth.set(target, level + 1);
            next.push(target);
          }
        }),
      );
    }
    frontier = next;
  }
  return { depth, pages };
}

describe('a crawler without JavaScript, from /', () => {
  it('reaches every approved plot within 3 links, each with its outbound link, and never a hidden or removed one', async () => {
    const { depth, pages } = await crawl();
    const unreached = [...approved.keys()].filter((id) => !pages.has(`/plot/${id}`));
    expect(unreached, `approved plots not within ${MAX_DEPTH} links of / (${pages.size} pages crawled)`).toEqual([]);

    for (const [id, link] of approved) {
      const tags = anchors(pages.get(`/plot/${id}`)!);
      expect(
        tags.some((a) => a.href === link && a.rel === REL),
        `/plot/${id} links ${link} with rel="${REL}"`,
      ).toBe(true);
    }

    for (const hidden of [underReview, removed]) {
      const linked = [...depth.keys()].filter((address) => address.toLowerCase().includes(hidden));
      expect(linked, `a hidden or removed plot is linked: ${hidden}`).toEqual([]);
      for (const [address, html] of pages) expect(html.includes(hidden), `${address} names ${hidden}`).toBe(false);
    }
    // The region pages carried them: the crowded region needed more than one page.
    expect([...pages.keys()].some((address) => /^\/regions\/[a-z0-9-]+\?page=[2-9]/.test(address))).toBe(true);
  }, 180_000);
});
