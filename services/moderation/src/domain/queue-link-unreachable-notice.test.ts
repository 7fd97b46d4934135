import { eventually } from '@pixel-atlas/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  claimedEvent,
  envelope,
  mailingModerationPerFile,
  plotSnapshot,
  publish,
  startSmtpServer,
  type TestSmtpServer,
} from '../testing/moderation-world.ts';

let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => smtp?.close());
const service = mailingModerationPerFile(() => smtp.port, {}, 'moderation-link-test');
/** Events the inbox recognised as already applied (counted once their transaction committed). */
const duplicates = async () =>
  Number(
    /events_handled_total\{consumer="moderation",outcome="duplicate",service="moderation"\} (\d+)/.exec(
      await service.app.metrics.metrics(),
    )?.[1] ?? 0,
  );

function unreachable(plot: ReturnType<typeof plotSnapshot>) {
  return envelope('plots.link.unreachable', {
    plotId: plot.plotId,
    displayName: plot.displayName,
    x: plot.x,
    y: plot.y,
    link: plot.link!,
    failingSince: '2026-11-20T06:00:00.000Z',
    consecutiveFailures: 12,
    lastError: 'connection refused',
  });
}

describe('plots.link.unreachable', () => {
  it('e-mails the owner once, saying which link, since when and that the plot keeps it', async () => {
    const plot = plotSnapshot({ displayName: 'Grace', link: 'https://grace.example/cobol' });
    await publish(service.bus, claimedEvent(plot, { notificationEmail: 'grace@example.com' }));
    await eventually(async () => service.app.db.plotContact.findUnique({ where: { plotId: plot.plotId } }), 15_000);
    const event = unreachable(plot);
    const dropped = await duplicates();
    await publish(service.bus, event);
    // The same event again under another message id (a relay retry past the dedup window): the inbox drops it.
    await publish(service.bus, event, `${event.id}-again`);

    const mail = await eventually(async () => smtp.messages.find((m) => m.to.includes('grace@example.com')), 15_000);
    expect(mail.subject).toBe("The link on your plot 'Grace' seems to be down");
    expect(mail.text).toContain('https://grace.example/cobol');
    expect(mail.text).toContain(`https://atlas.example/plot/${plot.plotId}`);
    expect(mail.text).toContain(
      'It has not answered since Fri, 20 Nov 2026: 12 checks in a row failed (the last one: connection refused).',
    );
    expect(mail.text).toContain('Your plot keeps the link');
    const rows = await eventually(async () => {
      const found = await service.app.db.notification.findMany({ where: { plotId: plot.plotId } });
      return found.length === 1 && found[0]!.status === 'sent' ? found : null;
    });
    expect(rows[0]).toMatchObject({ kind: 'link-unreachable', auditId: null, email: 'grace@example.com' });
    // The copy was handled too (dropped as a duplicate): no second notice was queued, so none will be sent.
    await eventually(async () => (await duplicates()) > dropped, 15_000);
    expect(await service.app.db.notification.count({ where: { plotId: plot.plotId } })).toBe(1);
    expect(smtp.messages.filter((m) => m.to.includes('grace@example.com'))).toHaveLength(1);
  });

  it('queues nothing when the owner left no address', async () => {
    const plot = plotSnapshot({ displayName: 'Anonymous' });
    await publish(service.bus, claimedEvent(plot));
    const event = unreachable(plot);
    await publish(service.bus, event);
    await eventually(async () => (await service.app.db.inboxEvent.count({ where: { eventId: event.id } })) === 1, 15_000);
    expect(await service.app.db.notification.count({ where: { plotId: plot.plotId } })).toBe(0);
  });
});
