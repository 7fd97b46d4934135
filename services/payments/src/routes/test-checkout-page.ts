import { TIER_SIZE, formatPrice, isTier, tierPlotLabel } from '@pixel-atlas/contracts/tiers';
import type { TestCheckoutSession } from '../generated/prisma/client.ts';
import { TEST_CHECKOUT_PATH } from '../providers/test-checkout-provider.ts';

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** No script at all (the CSP forbids inline script): a plain form posts the payment. */
export const TEST_CHECKOUT_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

const STYLE = `
  body { margin: 0; font-family: system-ui, -apple-system, Segoe UI, Roboto, sans-serif; background: #0f172a; color: #0f172a; }
  main { max-width: 28rem; margin: 2rem auto; background: #fff; border: 2px solid #0f172a; box-shadow: 6px 6px 0 #f59e0b; padding: 1.5rem; }
  .banner { background: #f59e0b; color: #0f172a; font-weight: 800; text-align: center; padding: .75rem; letter-spacing: .04em; border: 2px solid #0f172a; }
  h1 { font-size: 1.25rem; margin: 1rem 0; }
  dl { display: grid; grid-template-columns: auto 1fr; gap: .5rem 1rem; margin: 0 0 1.5rem; }
  dt { font-weight: 600; color: #475569; } dd { margin: 0; }
  .price { font-size: 1.5rem; font-weight: 800; }
  .actions { display: flex; gap: 1rem; align-items: center; flex-wrap: wrap; }
  button { font: inherit; font-weight: 700; padding: .75rem 1.25rem; min-height: 44px; background: #16a34a; color: #fff; border: 2px solid #0f172a; box-shadow: 3px 3px 0 #0f172a; cursor: pointer; }
  button:focus-visible, a:focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
  a { color: #1d4ed8; }
  .note { color: #475569; font-size: .875rem; margin-top: 1.5rem; }
`;

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
<div class="banner" role="note">TEST MODE — no real money</div>
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

export function renderTestCheckoutPage(siteName: string, session: TestCheckoutSession): string {
  const id = encodeURIComponent(session.id);
  if (session.status === 'complete') {
    const claim = session.successUrl.replace('{CHECKOUT_SESSION_ID}', id);
    return page(siteName, 'Test checkout: paid', `<h1>This order is already paid (test mode)</h1>${order(session)}<p><a href="${escapeHtml(claim)}">Continue to claim your plot</a></p>`);
  }
  if (session.status === 'expired') return renderTestCheckoutExpired(siteName, session);
  return page(
    siteName,
    'Test checkout',
    `<h1>Your order</h1>
${order(session)}
<div class="actions">
<form method="post" action="${TEST_CHECKOUT_PATH}/${id}/pay"><button type="submit">Pay (test mode)</button></form>
<a href="${escapeHtml(session.cancelUrl.replace('{CHECKOUT_SESSION_ID}', id))}">Cancel</a>
</div>`,
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
