// The buyer's receipt and "Lost your owner link?", with the real plots, payments and moderation services and a local
// SMTP server: the address typed on the test checkout page gets a receipt (amount, tier, position, date, the plot's
// page, the owner link); the recovery form e-mails new owner links for every plot of an address, answers the same for
// an address that bought nothing (and sends nothing), and is limited per client and per address.
import { OWNER_LINK_RECOVERY_MESSAGE } from '@pixel-atlas/contracts/manage';
import { startSmtpServer, type TestSmtpServer } from '@pixel-atlas/moderation-service/testing/moderation-world';
import { eventually } from '@pixel-atlas/service-kit/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { claim, claimBody, startCheckout, streamEvents, viaGateway } from '@pixel-atlas/test-stack/world';
import { worldPerFile } from '@pixel-atlas/test-stack/world-per-file';
import { spotSupply } from '@pixel-atlas/test-stack/spot-supply';

let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => smtp?.close());
const world = worldPerFile(() => ({
  moderationEnv: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}?ignoreTLS=true`, PUBLIC_ORIGIN: 'https://atlas.example.com' },
  plotsEnv: { OWNER_LINK_RECOVERY_RATE_LIMIT_MAX: '4', OWNER_LINK_RECOVERY_PER_ADDRESS_MAX: '2' },
}));
const nextSpot = spotSupply(world, 2, 6);
const nextBasicSpot = spotSupply(world, 1, 2);
const ORIGIN = 'https://atlas.example.com';

/** Checkout, then the test checkout page's form with `email` typed in its field, then the claim (without an address). */
async function buyWithEmail(email: string, display_name: string) {
  const spot = nextSpot();
  const created = await startCheckout(world, { tier: 'featured', ...spot });
  expect(created.statusCode, created.body).toBe(200);
  const { url, sessionId } = created.json<{ url: string; sessionId: string }>();
  const page = await world.payments.inject({ method: 'GET', url, headers: viaGateway() });
  expect(page.body).toMatch(/<input id="email" name="email" type="email"/);
  const paid = await world.payments.inject({
    method: 'POST',
    url: `${url}/pay`,
    headers: { ...viaGateway(), 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ email }).toString(),
  });
  expect(paid.statusCode, paid.body).toBe(303);
  const claimed = await claim(world, await claimBody(sessionId, 'featured', spot.x, spot.y, { display_name }));
  expect(claimed.statusCode, claimed.body).toBe(201);
  const { plot, manage_token: token } = claimed.json<{ plot: { id: string; x: number; y: number }; manage_token: string }>();
  return { sessionId, plot, token };
}

const recover = (email: string, ip = '198.51.100.7') =>
  world.plots.inject({ method: 'POST', url: '/api/manage/recover', payload: { email }, headers: viaGateway(ip) });
const outcomes = async (outcome: string) => {
  const line = (await world.plots.metrics.metrics())
    .split('\n')
    .find((l) => l.startsWith(`plots_owner_link_recoveries_total{outcome="${outcome}"`));
  return Number(line?.split(' ').pop() ?? 0);
};
const mailsTo = (address: string) => smtp.messages.filter((m) => m.to.some((to) => to.toLowerCase() === address.toLowerCase()));
const manageStatus = async (token: string) =>
  (await world.plots.inject({ method: 'GET', url: `/api/manage/${token}`, headers: viaGateway() })).statusCode;

it('e-mails a receipt to the address typed at checkout: amount, tier, position, date, the plot page and a working owner link', async () => {
  const { sessionId, plot, token } = await buyWithEmail('rosa.receipt@example.com', 'Receipt Rosa');

  const mail = await eventually(async () => mailsTo('rosa.receipt@example.com')[0]);
  expect(mail.subject).toBe("Your receipt from Pixel Atlas: 'Receipt Rosa', Featured Plot");
  expect(mail.text).toContain('Amount:    $50 USD');
  expect(mail.text).toContain('Tier:      Featured Plot (2×2 tiles)');
  expect(mail.text).toContain(`Position:  (${plot.x}, ${plot.y})`);
  expect(mail.text).toMatch(/Date: {6}\d{1,2} \w+ \d{4} at \d{2}:\d{2} UTC/);
  expect(mail.text).toContain(`Plot page: ${ORIGIN}/plot/${plot.id}`);
  expect(mail.text).toContain(`${ORIGIN}/manage/${token}`);
  expect(await manageStatus(token)).toBe(200);

  // The address lives on the plot (for notices and recovery) and nowhere else in plots; moderation keeps the mail with
  // a placeholder for the link; payments keeps no copy (the provider's session has it, as Stripe's does).
  const [row] = await world.db.query<{ notification_email: string }>(`SELECT notification_email FROM plots.plots WHERE id = $1`, [plot.id]);
  expect(row?.notification_email).toBe('rosa.receipt@example.com');
  const [entitlement] = await world.db.query<{ buyer_email: string | null }>(
    `SELECT buyer_email FROM plots.entitlements WHERE session_id = $1`,
    [sessionId],
  );
  expect(entitlement?.buyer_email).toBeNull();
  // The row is written right after the SMTP server took the mail.
  const notice = await eventually(
    async () =>
      (
        await world.db.query<{ kind: string; status: string; body: string }>(
          `SELECT kind, status, body FROM moderation.notifications WHERE plot_id = $1`,
          [plot.id],
        )
      )[0],
  );
  expect(notice).toMatchObject({ kind: 'receipt', status: 'sent' });
  expect(notice?.body).not.toContain(token);
  expect(JSON.stringify(await world.db.query(`SELECT * FROM payments.payments WHERE stripe_session_id = $1`, [sessionId]))).not.toContain(
    'rosa.receipt',
  );
  expect(JSON.stringify(await streamEvents(world))).not.toContain(token);
});

it('the test checkout refuses a malformed address with 400 and the page again, and takes no payment', async () => {
  const spot = nextBasicSpot();
  const { url, sessionId } = (await startCheckout(world, { tier: 'basic', ...spot })).json<{ url: string; sessionId: string }>();
  const refused = await world.payments.inject({
    method: 'POST',
    url: `${url}/pay`,
    headers: { ...viaGateway(), 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'email=not-an-address',
  });
  expect(refused.statusCode).toBe(400);
  expect(refused.body).toContain('Please enter a valid email address');
  expect(refused.body).toContain('value="not-an-address"');
  const [payment] = await world.db.query<{ status: string }>(`SELECT status FROM payments.payments WHERE stripe_session_id = $1`, [
    sessionId,
  ]);
  expect(payment?.status).toBe('pending');
});

it('"Lost your owner link?" e-mails new links for every plot of the address; the old ones stop, the new ones open the owner page', async () => {
  const first = await buyWithEmail('otto.owner@example.com', 'Otto One');
  const second = await buyWithEmail('otto.owner@example.com', 'Otto Two');
  await eventually(async () => (mailsTo('otto.owner@example.com').length === 2 ? true : undefined));

  // Another case of the same address: the same buyer.
  const answer = await recover('Otto.Owner@Example.com');
  expect(answer.statusCode).toBe(202);
  expect(answer.json()).toEqual({ message: OWNER_LINK_RECOVERY_MESSAGE });

  const mail = await eventually(async () => mailsTo('Otto.Owner@Example.com').find((m) => m.subject === 'Your owner links on Pixel Atlas'));
  const links = [...mail.text.matchAll(/https:\/\/atlas\.example\.com\/manage\/([A-Za-z0-9_-]{43})/g)].map((m) => m[1]!);
  expect(links).toHaveLength(2);
  expect(mail.text).toContain(`'Otto One' at (${first.plot.x}, ${first.plot.y}):`);
  expect(mail.text).toContain(`'Otto Two' at (${second.plot.x}, ${second.plot.y}):`);
  await eventually(async () => ((await manageStatus(first.token)) === 404 ? true : undefined));
  expect(await manageStatus(second.token)).toBe(404);
  for (const link of links) expect(await manageStatus(link)).toBe(200);
  const pages = await Promise.all(
    links.map(async (link) => (await world.plots.inject({ method: 'GET', url: `/api/manage/${link}`, headers: viaGateway() })).json()),
  );
  expect(pages.map((p: { plot: { id: string } }) => p.plot.id).sort()).toEqual([first.plot.id, second.plot.id].sort());
  const kept = await world.db.query<{ kind: string; body: string }>(
    `SELECT kind, body FROM moderation.notifications WHERE kind = 'owner-link-recovery' AND plot_id = ANY($1::uuid[])`,
    [[first.plot.id, second.plot.id]],
  );
  expect(kept).toHaveLength(2);
  for (const link of links) expect(JSON.stringify(kept)).not.toContain(link);
});

it('answers an address that bought nothing exactly as one that did, and sends it nothing', async () => {
  await buyWithEmail('known.buyer@example.com', 'Known Buyer');
  await eventually(async () => mailsTo('known.buyer@example.com')[0]);
  const noneBefore = await outcomes('none');
  const sentBefore = await outcomes('sent');

  const unknown = await recover('nobody.bought@example.com', '198.51.100.20');
  const known = await recover('known.buyer@example.com', '198.51.100.21');
  expect(unknown.statusCode).toBe(known.statusCode);
  expect(unknown.body).toBe(known.body);
  expect(unknown.headers['content-type']).toBe(known.headers['content-type']);

  await eventually(async () => ((await outcomes('none')) === noneBefore + 1 ? true : undefined));
  await eventually(async () => ((await outcomes('sent')) === sentBefore + 1 ? true : undefined));
  expect(mailsTo('nobody.bought@example.com')).toHaveLength(0);

  // A malformed address: 400 with the field's message, nothing looked up.
  const bad = await recover('not-an-address', '198.51.100.22');
  expect(bad.statusCode).toBe(400);
  expect(bad.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
});

it('is limited per client (429) and per address (the same answer, nothing more sent)', async () => {
  const ip = '198.51.100.40';
  const answers = [];
  for (let i = 0; i < 4; i++) answers.push((await recover(`limit.client.${i}@example.com`, ip)).statusCode);
  expect(answers).toEqual([202, 202, 202, 202]);
  const refused = await recover('limit.client.5@example.com', ip);
  expect(refused.statusCode).toBe(429);
  expect(refused.json()).toMatchObject({ error: { code: 'RATE_LIMITED' } });

  const limitedBefore = await outcomes('address-limited');
  const address = 'flood.target@example.com';
  const statuses = [];
  for (const from of ['198.51.100.50', '198.51.100.51', '198.51.100.52']) statuses.push((await recover(address, from)).statusCode);
  expect(statuses).toEqual([202, 202, 202]);
  await eventually(async () => ((await outcomes('address-limited')) === limitedBefore + 1 ? true : undefined));
});
