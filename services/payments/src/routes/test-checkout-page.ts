import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { TIER_SIZE, formatPrice, isTier, tierPlotLabel } from '@pixel-atlas/contracts/tiers';
import type { TestCheckoutSession } from '../generated/prisma/client.ts';
import { TEST_CHECKOUT_PATH } from '../providers/test-checkout-provider.ts';

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * The pixel display font the site uses for headings, inlined as a data: URL so the page needs no asset of the web
 * build (and still works where the package is missing: the headings fall back to a monospace face).
 */
function pixelFontFace(): string {
  try {
    const file = createRequire(import.meta.url).resolve('@fontsource/press-start-2p/files/press-start-2p-latin-400-normal.woff2');
    const woff2 = readFileSync(file).toString('base64');
    return `@font-face { font-family: "Press Start 2P"; font-style: normal; font-weight: 400; font-display: swap; src: url(data:font/woff2;base64,${woff2}) format("woff2"); }`;
  } catch {
    return '';
  }
}

/** The site's theme (web/src/styles.css): night background, raised panels, gold accents, hard pixel shadows. */
const STYLE = `${pixelFontFace()}
  :root { color-scheme: dark; }
  body { margin: 0; min-height: 100vh; font-family: ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; line-height: 1.5; background: #120f1f; color: #f4efe1; }
  main { max-width: 28rem; margin: 1.5rem auto; background: #1d1830; border: 2px solid #8f80c9; box-shadow: 4px 4px 0 #000; padding: 1.25rem; }
  @media (min-width: 480px) { main { margin: 3rem auto; padding: 1.75rem; } }
  .brand { margin: 0 0 1rem; text-align: center; color: #f2c14e; font-size: .75rem; text-shadow: 2px 2px 0 #000; }
  .pixel { font-family: "Press Start 2P", ui-monospace, monospace; font-weight: 400; text-transform: uppercase; }
  .banner { background: repeating-linear-gradient(-45deg, #f2c14e 0 14px, #c8962a 14px 28px); color: #1a1326; text-align: center; padding: .85rem .5rem; border: 2px solid #000; box-shadow: 2px 2px 0 #000; font-size: .7rem; line-height: 1.6; }
  .banner span { background: #f2c14e; padding: .15rem .4rem; }
  h1 { font-family: "Press Start 2P", ui-monospace, monospace; font-weight: 400; font-size: .9rem; line-height: 1.6; color: #f2c14e; margin: 1.5rem 0 1rem; }
  dl { display: grid; grid-template-columns: auto 1fr; gap: .5rem 1rem; margin: 0 0 1.5rem; }
  dt { color: #c9c0de; } dd { margin: 0; }
  .price { font-size: 1.5rem; font-weight: 800; color: #f2c14e; }
  .price small { font-size: .8rem; font-weight: 600; color: #c9c0de; }
  .actions { display: flex; gap: 1rem; align-items: center; flex-wrap: wrap; }
  .actions form { margin: 0; }
  button, .actions a { display: inline-flex; align-items: center; justify-content: center; min-height: 44px; min-width: 44px; box-sizing: border-box; padding: .75rem 1.25rem; border: 2px solid #000; box-shadow: 4px 4px 0 #000; font-family: "Press Start 2P", ui-monospace, monospace; font-size: .7rem; text-transform: uppercase; text-decoration: none; cursor: pointer; }
  button { background: #f2c14e; color: #1a1326; }
  button:hover { background: #f7d27a; }
  .actions a { background: #2a2342; color: #f4efe1; border-color: #8f80c9; }
  .actions a:hover { background: #372e56; }
  button:active, .actions a:active { transform: translate(2px, 2px); box-shadow: 2px 2px 0 #000; }
  button:focus-visible, a:focus-visible { outline: 3px solid #7dd3fc; outline-offset: 2px; }
  a { color: #7dd3fc; }
  .field { display: grid; gap: .35rem; margin: 0 0 1.25rem; }
  .field label { font-weight: 600; }
  .field input { min-height: 44px; box-sizing: border-box; padding: .5rem .75rem; border: 2px solid #8f80c9; background: #120f1f; color: #f4efe1; font: inherit; }
  .field input:focus-visible { outline: 3px solid #7dd3fc; outline-offset: 2px; }
  .field small { color: #c9c0de; }
  .field .error { color: #ff9b9b; font-weight: 600; }
  .note { color: #c9c0de; font-size: .875rem; margin: 1.5rem 0 0; border-top: 2px solid #2a2342; padding-top: 1rem; }
`;

/**
 * No script at all (the CSP forbids any): a plain form posts the payment. The one inline style block is allowed by
 * its hash rather than 'unsafe-inline', and the pixel font only as a data: URL.
 */
export const TEST_CHECKOUT_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; font-src data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`;

function page(siteName: string, title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · ${escapeHtml(siteName)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<p class="brand pixel">${escapeHtml(siteName)}</p>
<div class="banner pixel" role="note"><span>TEST MODE — no real money</span></div>
${body}
<p class="note">This is ${escapeHtml(siteName)}'s built-in test checkout. No card is asked for and nothing is charged. Operators: set STRIPE_SECRET_KEY to take real payments.</p>
</main>
</body>
</html>`;
}

function order(session: TestCheckoutSession): string {
  const tier = isTier(session.tier) ? session.tier : 'basic';
  const size = TIER_SIZE[tier];
  return `<dl>
<dt>Tier</dt><dd>${escapeHtml(tierPlotLabel(tier))}</dd>
<dt>Size</dt><dd>${size}×${size} tiles</dd>
<dt>Position</dt><dd>(${session.x}, ${session.y})</dd>
<dt>Price</dt><dd class="price">${escapeHtml(formatPrice(session.amountTotal))} <small>${escapeHtml(session.currency.toUpperCase())}</small> (test mode)</dd>
</dl>`;
}

/** The receipt address, as Stripe's page asks for it: where the receipt and the owner link go. */
function emailField(form: { email?: string; error?: string }): string {
  const error = form.error ? `<span class="error" id="email-error" role="alert">${escapeHtml(form.error)}</span>` : '';
  return `<div class="field">
<label for="email">Email for your receipt</label>
<input id="email" name="email" type="email" autocomplete="email" maxlength="254" value="${escapeHtml(form.email ?? '')}"${form.error ? ' aria-invalid="true" aria-describedby="email-error"' : ''}>
${error}<small>We send your receipt and your plot's private owner link here.</small>
</div>`;
}

export function renderTestCheckoutPage(
  siteName: string,
  session: TestCheckoutSession,
  form: { email?: string; error?: string } = {},
): string {
  const id = encodeURIComponent(session.id);
  if (session.status === 'complete') {
    const claim = session.successUrl.replace('{CHECKOUT_SESSION_ID}', id);
    return page(
      siteName,
      'Test checkout: paid',
      `<h1>This order is already paid (test mode)</h1>${order(session)}<p><a href="${escapeHtml(claim)}">Continue to claim your plot</a></p>`,
    );
  }
  if (session.status === 'expired') return renderTestCheckoutExpired(siteName, session);
  return page(
    siteName,
    'Test checkout',
    `<h1>Your order</h1>
${order(session)}
<form method="post" action="${TEST_CHECKOUT_PATH}/${id}/pay">
${emailField(form)}
<div class="actions">
<button type="submit">Pay (test mode)</button>
<a href="${escapeHtml(session.cancelUrl.replace('{CHECKOUT_SESSION_ID}', id))}">Cancel</a>
</div>
</form>`,
  );
}

export function renderTestCheckoutExpired(siteName: string, session: TestCheckoutSession): string {
  return page(
    siteName,
    'Test checkout: expired',
    `<h1>This checkout session has expired</h1>${order(session)}<p>Nothing was charged. <a href="/">Back to the map</a> to start again.</p>`,
  );
}

export function renderTestCheckoutNotFound(siteName: string): string {
  return page(siteName, 'Test checkout: not found', `<h1>Checkout session not found</h1><p><a href="/">Back to the map</a></p>`);
}
