// Link health end to end with the real plots and moderation services: a plot whose link's name does not resolve
// (.invalid never does) fails every check, is marked unreachable after N failures, and its owner gets one e-mail
// through moderation's notifier; the admin list and the owner's view say so, the public plot keeps its link.
import { startSmtpServer, type TestSmtpServer } from '@pixel-atlas/moderation-service/testing/moderation-world';
import { TEST_INTERNAL_TOKEN, eventually } from '@pixel-atlas/service-kit/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buyAndClaim, outboxEvents } from '@pixel-atlas/test-stack/world';
import { worldPerFile } from '@pixel-atlas/test-stack/world-per-file';
import { spotSupply } from '@pixel-atlas/test-stack/spot-supply';
import { getLinkHealth } from './get-link-health.ts';

let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => smtp?.close());
const world = worldPerFile(() => ({
  plotsEnv: {
    LINK_CHECK_INTERVAL_MS: '100',
    LINK_CHECK_RECHECK_MS: '150',
    LINK_CHECK_TIMEOUT_MS: '2000',
    LINK_CHECK_UNREACHABLE_AFTER_FAILURES: '3',
    // The tests cannot wait 3 days: the span is covered by check-plot-links.test.ts with a clock of its own.
    LINK_CHECK_UNREACHABLE_AFTER_MS: '0',
  },
  moderationEnv: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}?ignoreTLS=true`, NOTIFY_POLL_INTERVAL_MS: '100' },
}));
const nextSpot = spotSupply(world, 1, 1);

it('tells the owner once by e-mail when the link is unreachable, and shows it to the owner and the admin', async () => {
  const spot = nextSpot();
  const { response: claimed } = await buyAndClaim(
    world,
    { tier: 'basic', ...spot },
    {
      display_name: 'Lost Link',
      link: 'https://lost-link.invalid/home',
      notification_email: 'lost@example.com',
    },
  );
  expect(claimed.statusCode, claimed.body).toBe(201);
  const plotId = claimed.json().plot.id as string;

  // The owner also gets the private owner link at claim time: the link-health notice is the one about the link.
  const linkNotices = () => smtp.messages.filter((m) => m.to.includes('lost@example.com') && m.subject.startsWith('The link on your plot'));
  const mail = await eventually(async () => linkNotices()[0], 20_000);
  expect(mail.subject).toBe("The link on your plot 'Lost Link' seems to be down");
  expect(mail.text).toContain('https://lost-link.invalid/home');
  // A resolver on a loaded machine may time out instead of answering that the name does not exist.
  expect(mail.text).toMatch(/\(the last one: (the name does not resolve|timed out after \d+ s)\)/);

  expect(await getLinkHealth({ db: world.plots.db, plotId })).toMatchObject({ status: 'unreachable', lastOkAt: null });
  const listed = await world.plots.inject({
    url: '/api/admin/link-health?status=unreachable',
    headers: { 'x-internal-token': TEST_INTERNAL_TOKEN, 'x-admin-user': 'warden' },
  });
  expect(listed.json().links).toEqual([expect.objectContaining({ plotId, displayName: 'Lost Link', status: 'unreachable' })]);
  // More failed rounds keep the mark without another e-mail: a later round is recorded in the transaction that would
  // have written another plots.link.unreachable, so the outbox holds every notice there will be.
  const checkedAt = (await getLinkHealth({ db: world.plots.db, plotId })).lastCheckedAt;
  await eventually(async () => (await getLinkHealth({ db: world.plots.db, plotId })).lastCheckedAt !== checkedAt, 10_000);
  expect((await outboxEvents(world, 'plots', 'plots.link.unreachable')).filter((e) => e.data.plotId === plotId)).toHaveLength(1);
  const notices = await eventually(async () => {
    const rows = await world.db.query(`SELECT status FROM moderation.notifications WHERE plot_id = $1 AND kind = 'link-unreachable'`, [
      plotId,
    ]);
    return rows.every((row) => row.status === 'sent') && rows;
  });
  expect(notices).toEqual([{ status: 'sent' }]);
  expect(linkNotices()).toHaveLength(1);
  // The public plot keeps its link.
  expect((await world.plots.inject(`/api/plots/${plotId}`)).json().link).toBe('https://lost-link.invalid/home');
});
