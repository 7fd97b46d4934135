// `npm run screenshots`: the buyer's path as pictures, in docs/screenshots/ (linked from the README).
//   PostgreSQL (as npm test finds it) and nats-server -> Prisma clients -> web build when stale
//   -> the whole site on a throwaway database and its own ports, with the test checkout (e2e/support/stack.ts)
//   -> a few plots bought and claimed through the public API (checkout, test-mode payment, claim)
//   -> for 390x844 and 1366x768: home, the claim popup on a land tile, /claim after a test-mode payment, the plot page,
//      /regions and the region page the plot page links.
// PNGs at 1x device scale, palette-encoded: <screen>-<width>x<height>.png. Nothing of the run is kept but the pictures.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Browser, Page, Request } from 'playwright-core';
import sharp from 'sharp';
import { mapCanvas, mapView, screenPointOfTile } from '../e2e/support/map.ts';
import { ensureInfra, findExecutable, InfraError, NATS_MISSING_MESSAGE } from './lib/infra.ts';
import { ROOT, buildWeb, runGenerate } from './lib/workspace.ts';

const OUT_DIR = path.join(ROOT, 'docs', 'screenshots');
const SIZES = [
  { width: 390, height: 844, touch: true },
  { width: 1366, height: 768, touch: false },
] as const;
type Tier = 'basic' | 'featured' | 'prime' | 'premium';
const TIER_SIZE: Record<Tier, number> = { basic: 1, featured: 2, prime: 3, premium: 4 };

/** Who bought what in the pictures (through the real API: checkout, test-mode payment, claim). */
const SEED_PLOTS: Array<{ tier: Tier; display_name: string; message: string; link: string; colour: string }> = [
  {
    tier: 'premium',
    display_name: 'Ada Pixel',
    message: 'Hand-drawn pixel worlds, one tile at a time.',
    link: 'https://ada-pixel.example/',
    colour: '#ef4444',
  },
  { tier: 'prime', display_name: 'Nova Studio', message: 'Indie games with big hearts.', link: 'https://nova.example/', colour: '#a855f7' },
  {
    tier: 'featured',
    display_name: 'Byte Bakery',
    message: 'Fresh code, baked daily.',
    link: 'https://bytebakery.example/',
    colour: '#eab308',
  },
  {
    tier: 'featured',
    display_name: 'Moss & Maple',
    message: 'Woodland photography and prints.',
    link: 'https://mossmaple.example/',
    colour: '#22c55e',
  },
  { tier: 'basic', display_name: 'Retro Rita', message: 'Chiptune every Friday.', link: 'https://rita.example/', colour: '#3b82f6' },
  {
    tier: 'basic',
    display_name: 'Quill Quest',
    message: 'Short stories for long commutes.',
    link: 'https://quill.example/',
    colour: '#f97316',
  },
  {
    tier: 'basic',
    display_name: 'Lumen Labs',
    message: 'Open-source lighting for makers.',
    link: 'https://lumen.example/',
    colour: '#06b6d4',
  },
  {
    tier: 'basic',
    display_name: 'Pebble Pod',
    message: 'A podcast about tiny things.',
    link: 'https://pebble.example/',
    colour: '#ec4899',
  },
];

const log = (message: string) => console.log(`[screenshots] ${message}`);

async function main() {
  const natsServer = process.env.NATS_SERVER_BIN || findExecutable('nats-server');
  if (!natsServer) throw new InfraError(NATS_MISSING_MESSAGE);
  const infra = await ensureInfra({ root: ROOT, log, nats: false });
  try {
    // The stack helper (shared with the browser tests) reads these when it creates the database and broker.
    process.env.DATABASE_URL = infra.postgresUrl;
    process.env.NATS_SERVER_BIN = natsServer;
    await runGenerate(ROOT, { log });
    await buildWeb(ROOT, { log });
    const { startStack } = await import('../e2e/support/stack.ts');
    log('starting the site (every service, gateway, test checkout) on a throwaway database…');
    const stack = await startStack({ MAP_SEED: process.env.MAP_SEED ?? 'pixel-atlas' });
    try {
      await shootAll(stack.url, stack.browser);
    } finally {
      await stack.stop();
    }
  } finally {
    await infra.stop();
  }
}

async function shootAll(siteUrl: string, browser: Browser) {
  mkdirSync(OUT_DIR, { recursive: true });
  const setup = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  const setupPage = await setup.newPage();
  await setupPage.goto(siteUrl);
  const layout = (await (await setup.request.get(`${siteUrl}/api/map-layout`)).json()) as {
    tiles: Array<{ x: number; y: number; is_land: boolean }>;
  };
  const land = new Set(layout.tiles.filter((tile) => tile.is_land).map((tile) => `${tile.x},${tile.y}`));
  const centre = await mapCentre(setupPage);
  log(`seeding ${SEED_PLOTS.length} plots around (${centre.x}, ${centre.y})…`);
  const taken: Array<{ x: number; y: number; size: number }> = [];
  for (const plot of SEED_PLOTS) {
    const spot = freeSpotNear(centre, TIER_SIZE[plot.tier], land, taken, 2);
    if (!spot) throw new Error(`no land left for ${plot.display_name}`);
    taken.push({ ...spot, size: TIER_SIZE[plot.tier] });
    await buyAndClaim(siteUrl, setup.request, { ...plot, ...spot, avatar_url: await pixelAvatar(setupPage, plot.colour) });
  }
  await setup.close();

  for (const size of SIZES) {
    const name = (screen: string) => path.join(OUT_DIR, `${screen}-${size.width}x${size.height}.png`);
    const context = await browser.newContext({
      viewport: { width: size.width, height: size.height },
      deviceScaleFactor: 1,
      hasTouch: size.touch,
    });
    const page = await context.newPage();
    const openRequests = trackOpenRequests(page);
    await openHome(page, siteUrl);
    // The strip's counters and the map's avatars arrive after the first frame.
    await waitFor(async () => /\d/.test(await page.getByTestId('strip-plots').innerText()), "the strip's counters");
    await settled(page, openRequests, 'the home page');
    await save(page, name('home'));

    // The claim popup on free land near the middle of the view, filled in as a buyer would.
    const tile = freeSpotNear(await mapCentre(page), 1, land, taken, 1);
    if (!tile) throw new Error('no free land tile in view');
    taken.push({ ...tile, size: 1 });
    const point = await screenPointOfTile(page, tile.x, tile.y);
    await page.mouse.click(point.x, point.y);
    const popup = page.getByRole('dialog', { name: 'Claim This Tile' });
    await waitFor(async () => (await popup.getByText(`Position (${tile.x}, ${tile.y})`).count()) === 1, 'the claim popup');
    await page.getByLabel('Display name').fill(size.touch ? 'Pocket Pixels' : 'Desk Dragons');
    await page.getByLabel('Message').fill('Tiny games you can play on the bus.');
    await page.getByLabel('Link (optional)').fill(size.touch ? 'https://pocket.example/' : 'https://desk-dragons.example/');
    const avatar = Buffer.from((await pixelAvatar(page, '#14b8a6')).split(',')[1] ?? '', 'base64');
    await page.setInputFiles('input[type=file]', { name: 'avatar.png', mimeType: 'image/png', buffer: avatar });
    await page.getByRole('button', { name: 'Save Avatar' }).click();
    await waitFor(async () => (await page.getByText('Avatar Saved').count()) > 0, 'the saved avatar');
    // Saving scrolled the phone's sheet down to the avatar: show it from its title.
    await popup.evaluate((sheet) => sheet.scrollTo(0, 0));
    await waitFor(async () => (await popup.evaluate((sheet) => sheet.scrollTop)) === 0, 'the popup scrolled to its title');
    await settled(page, openRequests, 'the claim popup');
    await save(page, name('claim-popup'));

    // Pay in the test checkout: /claim verifies the payment, claims the plot and celebrates.
    await page.getByRole('button', { name: /^PAY & CLAIM/ }).click();
    await page.waitForURL(/\/api\/test-checkout\//, { timeout: 30_000 });
    await page.getByRole('button', { name: /Pay \(test mode\)/ }).click();
    await page.waitForURL(/\/claim\?session_id=/, { timeout: 30_000 });
    await waitFor(async () => (await page.getByRole('heading', { name: 'Plot Claimed!' }).count()) === 1, "/claim's 'Plot Claimed!'");
    // The preview's chunk and the map under it arrive, then it flies to the new plot (the pin lands as it stops).
    await waitFor(async () => (await page.locator('[data-testid="map-preview"] canvas[data-zoom]').count()) === 1, 'the map preview');
    await settled(page, openRequests, "the celebration's map");
    await save(page, name('claim'));

    // The celebration keeps the owner link on screen until the buyer goes on to the new plot's page.
    await page.getByRole('link', { name: 'Continue to Your Plot' }).click();
    await page.waitForURL(/\/plot\/[0-9a-f-]{36}$/, { timeout: 30_000 });
    await waitFor(async () => (await page.getByRole('heading', { name: /'s Plot$/ }).count()) === 1, 'the plot page');
    await settled(page, openRequests, 'the plot page');
    await save(page, name('plot'));

    // The directory a crawler walks: the regions, and the region the plot page links.
    const regionHref = await page.locator('main a[href^="/regions/"]').first().getAttribute('href');
    if (!regionHref) throw new Error('the plot page links no region page');
    await page.goto(`${siteUrl}/regions`);
    await waitFor(async () => (await page.getByRole('heading', { name: 'Regions of the Atlas' }).count()) === 1, 'the regions page');
    await settled(page, openRequests, 'the regions page');
    await save(page, name('regions'));
    await page.goto(`${siteUrl}${regionHref}`);
    await waitFor(async () => (await page.locator('main a[href^="/plot/"]').count()) > 0, 'the region page');
    await settled(page, openRequests, 'the region page');
    await save(page, name('region'));
    await context.close();
  }
}

/**
 * The viewport at 1x, re-encoded as a palette PNG (sharp, already installed for the plots service): pixel art and
 * flat UI colours survive it, and the files are about half the size.
 */
async function save(page: Page, file: string) {
  const shot = await page.screenshot({ scale: 'css' });
  await sharp(shot).png({ palette: true, quality: 95, effort: 10, compressionLevel: 9 }).toFile(file);
  log(`saved ${path.relative(ROOT, file)}`);
}

async function buyAndClaim(
  siteUrl: string,
  request: APIRequestContext,
  plot: { tier: Tier; x: number; y: number; display_name: string; message: string; link: string; avatar_url: string },
) {
  const checkout = await request.post(`${siteUrl}/api/create-checkout-session`, { data: { tier: plot.tier, x: plot.x, y: plot.y } });
  if (!checkout.ok()) throw new Error(`checkout for ${plot.display_name}: ${checkout.status()} ${await checkout.text()}`);
  const { sessionId } = (await checkout.json()) as { sessionId: string };
  const paid = await request.post(`${siteUrl}/api/test-checkout/${sessionId}/pay`, { maxRedirects: 0 });
  if (paid.status() !== 303) throw new Error(`test payment for ${plot.display_name}: ${paid.status()}`);
  const { tier, x, y, display_name, message, link, avatar_url } = plot;
  const claim = await request.post(`${siteUrl}/api/claim-plot`, {
    data: { display_name, message, link, zone: 'nexus', x, y, tier, avatar_url, stripeSessionId: sessionId },
  });
  if (claim.status() !== 201) throw new Error(`claim for ${plot.display_name}: ${claim.status()} ${await claim.text()}`);
}

/** The nearest spot (by rings around `centre`) whose whole footprint is land, `gap` tiles clear of every taken one. */
function freeSpotNear(
  centre: { x: number; y: number },
  size: number,
  land: Set<string>,
  taken: Array<{ x: number; y: number; size: number }>,
  gap: number,
): { x: number; y: number } | null {
  for (let radius = 0; radius < 40; radius += 1) {
    for (let dy = -radius; dy <= radius; dy += 1) {
      for (let dx = -radius; dx <= radius; dx += 1) {
        if (Math.max(Math.abs(dx), Math.abs(dy)) !== radius) continue;
        const x = Math.round(centre.x) + dx;
        const y = Math.round(centre.y) + dy;
        let allLand = true;
        for (let i = 0; i < size && allLand; i += 1) for (let j = 0; j < size && allLand; j += 1) allLand = land.has(`${x + i},${y + j}`);
        const clear = taken.every(
          (other) =>
            x + size + gap <= other.x || other.x + other.size + gap <= x || y + size + gap <= other.y || other.y + other.size + gap <= y,
        );
        if (allLand && clear) return { x, y };
      }
    }
  }
  return null;
}

async function openHome(page: Page, siteUrl: string) {
  await page.goto(siteUrl);
  await page.waitForFunction(() => document.documentElement.dataset.app === 'live', undefined, { timeout: 60_000 });
  await waitFor(async () => Number(await mapCanvas(page).getAttribute('data-zoom')) > 0, 'the map');
}

async function mapCentre(page: Page): Promise<{ x: number; y: number }> {
  await waitFor(async () => Number(await mapCanvas(page).getAttribute('data-zoom')) > 0, 'the map');
  const { x, y } = await mapView(page);
  return { x, y };
}

/** A symmetric 8x8 pixel face in one colour, drawn by the browser's canvas and scaled up without smoothing. */
async function pixelAvatar(page: Page, colour: string): Promise<string> {
  return page.evaluate((fill) => {
    const canvas = document.createElement('canvas');
    canvas.width = 96;
    canvas.height = 96;
    const context = canvas.getContext('2d')!;
    context.fillStyle = '#1e1930';
    context.fillRect(0, 0, 96, 96);
    // No named helpers in here: tsx (esbuild keepNames) would wrap them in a __name() the page does not have.
    let seed = 7;
    for (let i = 0; i < fill.length; i += 1) seed = (seed * 31 + fill.charCodeAt(i)) >>> 0;
    context.fillStyle = fill;
    for (let y = 0; y < 8; y += 1) {
      for (let x = 0; x < 4; x += 1) {
        seed = (seed * 1103515245 + 12345) >>> 0;
        if (seed >>> 16 < 0.55 * 65536) {
          context.fillRect(x * 12, y * 12, 12, 12);
          context.fillRect((7 - x) * 12, y * 12, 12, 12);
        }
      }
    }
    return canvas.toDataURL('image/png');
  }, colour);
}

/**
 * The requests the page has open, the live-update stream left out (it stays open for as long as the page does): what
 * a picture still waits for (the plot list, avatars, a lazily loaded chunk) is one of them until it has arrived. A web
 * worker's script counts as arrived once the worker runs: Playwright never reports that request finished.
 */
function trackOpenRequests(page: Page): () => string[] {
  const open = new Set<Request>();
  const runningWorkers = new Set<string>();
  page.on('request', (request) => {
    const url = request.url();
    if (!new URL(url).pathname.startsWith('/api/live') && !runningWorkers.has(url)) open.add(request);
  });
  page.on('requestfinished', (request) => open.delete(request));
  page.on('requestfailed', (request) => open.delete(request));
  page.on('worker', (worker) => {
    runningWorkers.add(worker.url());
    worker.once('close', () => runningWorkers.delete(worker.url()));
    for (const request of open) if (request.url() === worker.url()) open.delete(request);
  });
  return () => Array.from(open, (request) => `${request.method()} ${new URL(request.url()).pathname}`);
}

/**
 * Waits until the page shows what it is going to show: its fonts loaded, no request open, every image in view
 * decoded, and over four frames every map drawn and still and no finite animation running (endless ones, such as a
 * placeholder's pulse, never end). Frames, not a clock: a busy machine draws them later, and the answer holds.
 */
async function settled(page: Page, openRequests: () => string[], what: string) {
  await page.evaluate(async () => {
    await document.fonts.ready;
  });
  let pending = '';
  const settledNow = async () => {
    const open = openRequests();
    pending = open.length ? `requests open: ${open.join(', ')}` : await stillOverFourFrames(page);
    if (!pending && openRequests().length) pending = `requests open: ${openRequests().join(', ')}`;
    return pending === '';
  };
  await waitFor(settledNow, what, 30_000, () => pending);
}

/**
 * What still moves or loads over four frames ('' when nothing does). A map is its canvas (data-zoom and its
 * camera): its picture, sampled small, the same over the frames and more than a backdrop's colour or two (the
 * terrain comes from a worker, the avatars from their own requests, after the first frames).
 */
async function stillOverFourFrames(page: Page): Promise<string> {
  // No named helpers in here: tsx (esbuild keepNames) would wrap them in a __name() the page does not have.
  return page.evaluate(async () => {
    const side = 24;
    const scratch = document.createElement('canvas');
    scratch.width = side;
    scratch.height = side;
    const sampler = scratch.getContext('2d', { willReadFrequently: true })!;
    const passes: Array<Array<{ camera: string; colours: number; pixels: string }>> = [];
    for (let pass = 0; pass < 2; pass += 1) {
      if (pass === 1) for (let frame = 0; frame < 4; frame += 1) await new Promise((resolve) => requestAnimationFrame(resolve));
      const maps = Array.from(document.querySelectorAll<HTMLCanvasElement>('canvas[data-zoom]')).filter((map) => map.width && map.height);
      passes.push(
        maps.map((map) => {
          sampler.clearRect(0, 0, side, side);
          sampler.drawImage(map, 0, 0, side, side);
          const pixels = sampler.getImageData(0, 0, side, side).data;
          const colours = new Set<number>();
          for (let i = 0; i < pixels.length; i += 4) colours.add((pixels[i]! << 16) | (pixels[i + 1]! << 8) | pixels[i + 2]!);
          return { camera: JSON.stringify(map.dataset), colours: colours.size, pixels: pixels.join(',') };
        }),
      );
    }
    const [before = [], after = []] = passes;
    const changed =
      before.length !== after.length || before.some((map, i) => map.camera !== after[i]?.camera || map.pixels !== after[i]?.pixels);
    const blank = after.filter((map) => map.colours <= 2);
    const loading = Array.from(document.images).filter((image) => {
      const box = image.getBoundingClientRect();
      const inView = box.bottom > 0 && box.right > 0 && box.top < window.innerHeight && box.left < window.innerWidth;
      return inView && !image.complete;
    });
    const animating = document
      .getAnimations()
      .filter((animation) => animation.playState === 'running' && animation.effect?.getComputedTiming().endTime !== Infinity);
    return [
      changed ? 'a map still moving or drawing' : '',
      blank.length ? `${blank.length} map(s) not drawn yet` : '',
      loading.length ? `images loading: ${loading.map((image) => image.currentSrc || image.src).join(', ')}` : '',
      animating.length
        ? `animations running: ${animating.map((animation) => ('animationName' in animation ? animation.animationName : 'transitionProperty' in animation ? animation.transitionProperty : animation.id || 'scripted')).join(', ')}`
        : '',
    ]
      .filter(Boolean)
      .join('; ');
  });
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 30_000, stillPending?: () => string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${stillPending ? ` (${stillPending()})` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

main().then(
  () => log(`done: ${path.relative(ROOT, OUT_DIR)}`),
  (error: unknown) => {
    console.error(`[screenshots] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
