// The owner link by e-mail, with the real plots and moderation services and a local SMTP server: the buyer who left an
// address gets the link once; the token is kept nowhere (no event, no outbox row, the notification row has a
// placeholder), and a buyer without an address gets no e-mail.
import { createHash } from 'node:crypto';
import { startSmtpServer, type TestSmtpServer } from '@pixel-atlas/moderation-service/testing/moderation-world';
import { eventually } from '@pixel-atlas/service-kit/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buyAndClaim, buyAndPay, claim, claimBody, streamEvents } from '@pixel-atlas/test-stack/world';
import { worldPerFile } from '@pixel-atlas/test-stack/world-per-file';
import { spotSupply } from '@pixel-atlas/test-stack/spot-supply';

let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => smtp?.close());
const world = worldPerFile(() => ({
  moderationEnv: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}?ignoreTLS=true`, PUBLIC_ORIGIN: 'https://atlas.example.com' },
}));
const nextSpot = spotSupply(world, 1, 3);

it('e-mails the owner link once to the address left at claim, and keeps the token nowhere but its hash', async () => {
  const [spot, other, later] = [nextSpot(), nextSpot(), nextSpot()];
  const { response: claimed } = await buyAndClaim(
    world,
    { tier: 'basic', ...spot },
    { display_name: 'Mail Mabel', notification_email: 'mabel@example.com' },
  );
  expect(claimed.statusCode, claimed.body).toBe(201);
  const { plot, manage_token: token } = claimed.json<{ plot: { id: string }; manage_token: string }>();

  const mail = await eventually(async () => smtp.messages.find((m) => m.to.includes('mabel@example.com')));
  // A paid claim's e-mail is the buyer's receipt, which carries the owner link.
  expect(mail.subject).toBe("Your receipt from Pixel Atlas: 'Mail Mabel', Basic Plot");
  expect(mail.text).toContain(`https://atlas.example.com/manage/${token}`);
  // The link in the e-mail opens the owner page.
  expect((await world.plots.inject(`/api/manage/${token}`)).statusCode).toBe(200);

  const [row] = await world.db.query<Record<string, unknown>>(
    `SELECT kind, status, body FROM moderation.notifications WHERE plot_id = $1`,
    [plot.id],
  );
  expect(row).toMatchObject({ kind: 'receipt', status: 'sent' });
  expect(row?.body).toContain('[private owner link: sent, not kept]');
  const everywhere = JSON.stringify([
    await world.db.query(`SELECT * FROM moderation.notifications`),
    await world.db.query(`SELECT payload FROM plots.outbox_events`),
    await world.db.query(`SELECT payload FROM moderation.outbox_events`),
    await streamEvents(world),
  ]);
  expect(everywhere).not.toContain(token);
  const [hashed] = await world.db.query<{ token_hash: string }>(`SELECT token_hash FROM plots.plot_manage_tokens WHERE plot_id = $1`, [
    plot.id,
  ]);
  expect(hashed?.token_hash).toBe(createHash('sha256').update(token).digest('hex'));

  // Without an address: no e-mail. A claim with one made after it is e-mailed by the same path (after its commit,
  // through moderation); once that e-mail is in, one for the earlier claim would have come before it.
  const before = smtp.messages.length;
  const quiet = await buyAndPay(world, { tier: 'basic', ...other });
  const quietClaim = await claim(world, await claimBody(quiet, 'basic', other.x, other.y, { display_name: 'Quiet Quinn' }));
  expect(quietClaim.statusCode).toBe(201);
  const { response: loud } = await buyAndClaim(
    world,
    { tier: 'basic', ...later },
    { display_name: 'Later Lou', notification_email: 'lou@example.com' },
  );
  expect(loud.statusCode, loud.body).toBe(201);
  await eventually(async () => smtp.messages.find((m) => m.to.includes('lou@example.com')));
  expect(smtp.messages.slice(before).map((m) => m.to)).toEqual([['lou@example.com']]);
  expect(await world.db.query(`SELECT kind FROM moderation.notifications WHERE plot_id = $1`, [quietClaim.json().plot.id])).toEqual([]);
  expect(smtp.messages.filter((m) => m.to.includes('mabel@example.com'))).toHaveLength(1);
});
